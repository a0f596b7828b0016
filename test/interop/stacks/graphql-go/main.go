// The contract's auth service (../README.md) on graph-gophers/graphql-go 1.5.0 and golang-jwt v4, as Debian
// packages them (golang-github-graph-gophers-graphql-go-dev, golang-github-golang-jwt-jwt-dev).
//
// Written the way these pages teach it:
//   - graphql-go's README, "Getting started" and "Resolvers": an SDL schema string, a resolver struct whose
//     exported methods match the fields (an optional context.Context, an args struct, an optional error),
//     graphql.MustParseSchema, and relay.Handler served by net/http;
//   - graphql-go's README, "Custom Errors", and its example/customerrors: a resolver error that also has
//     `Extensions() map[string]interface{}` gets those extensions on the wire;
//   - golang-jwt v4's examples (example_test.go, hmac_example_test.go, http_example_test.go): custom claims
//     embedding jwt.RegisteredClaims, jwt.NewWithClaims with HS256, jwt.ParseWithClaims with a key func, and
//     errors.Is(err, jwt.ErrTokenExpired) to tell an expired token from another bad one;
//   - net/http's middleware idiom: a handler wrapping relay.Handler that puts the Authorization header's bearer
//     token into the request's context, where the resolvers' context.Context argument finds it.
//
// The contract's one error code, TOKEN_EXPIRED, is the only error type with extensions here (tokenExpiredError).
// Every other refusal is a plain errors.New, which relay.Handler puts on the wire as HTTP 200,
// Content-Type application/json, and a body such as
//
//	{"errors":[{"message":"Not authenticated","path":["me"]}],"data":null}
//
// that is the message and the path, no locations and no extensions at all ("data" is null because every root
// field here is non-null). The expired token gives the same, plus "extensions":{"code":"TOKEN_EXPIRED"}.
// A body relay.Handler cannot decode as JSON (or none, as with GET) is HTTP 400, text/plain, the decoder's
// message. jwt v4 checks exp before the signature but reports both: an expired token that is not ours (bad
// signature) is "Not authenticated", an expired one of ours TOKEN_EXPIRED even when its session is dead.
//
// Build offline in GOPATH mode on Debian's /usr/share/gocode (no module proxy, no go.mod here):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE=/tmp/gocache go build -o /tmp/somewhere/server .
//
// Debian installs golang-jwt v4 (4.4.x, whose go.mod says "module github.com/golang-jwt/jwt/v4") in
// /usr/share/gocode/src/github.com/golang-jwt/jwt, so in GOPATH mode it is imported by that directory's path.
// The import github.com/golang-jwt/jwt/v4 does not resolve here: GOPATH mode maps .../v4 to that directory only
// for code that is itself inside a GOPATH tree with a go.mod, and this folder is neither.
package main

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	jwt "github.com/golang-jwt/jwt" // v4, see above
	graphql "github.com/graph-gophers/graphql-go"
	"github.com/graph-gophers/graphql-go/relay"
)

const schemaString = `
	schema {
		query: Query
		mutation: Mutation
	}

	type Query {
		me: User!
		club(id: ID!): Club!
	}

	type Mutation {
		loginWithEmailPassword(email: String!, password: String!): AuthPayload!
		refreshToken(token: String!): TokenPair!
		logout(refreshToken: String!): LogoutResult!
		renameClub(id: ID!, name: String!): Club!
	}

	type User {
		id: ID!
		email: String!
		role: String!
	}

	type AuthPayload {
		accessToken: String!
		refreshToken: String!
		user: User!
	}

	type TokenPair {
		accessToken: String!
		refreshToken: String!
	}

	type LogoutResult {
		success: Boolean!
	}

	type Club {
		id: ID!
		name: String!
	}
`

// ---- Errors ------------------------------------------------------------------------------------------------

// tokenExpiredError is the contract's one coded error; graphql-go copies Extensions() into the answer.
type tokenExpiredError struct{}

func (tokenExpiredError) Error() string { return "Access token expired" }

func (tokenExpiredError) Extensions() map[string]interface{} {
	return map[string]interface{}{"code": "TOKEN_EXPIRED"}
}

var (
	errInvalidCredentials  = errors.New("Invalid email or password")
	errInvalidRefreshToken = errors.New("Invalid refresh token")
	errNotAuthenticated    = errors.New("Not authenticated")
	errClubNotFound        = errors.New("Club not found")
	errClubNotEditable     = errors.New("Not allowed to edit this club")
)

// ---- Users, sessions and tokens ----------------------------------------------------------------------------

type user struct {
	ID       string
	Email    string
	Password string
	Role     string
}

var users = []*user{
	{ID: "u-admin", Email: "admin@interop.test", Password: "admin-pass", Role: "ADMIN"},
	{ID: "u-cashier", Email: "cashier@interop.test", Password: "cashier-pass", Role: "Cashier"},
}

// claims are both tokens' claims: the access token fills Email and Role, the refresh token Type ("refresh").
type claims struct {
	Email     string `json:"email,omitempty"`
	Role      string `json:"role,omitempty"`
	SessionID string `json:"sid"`
	Type      string `json:"typ,omitempty"`
	jwt.RegisteredClaims
}

type session struct {
	user *user
	// refreshID is the jti of the one refresh token of the session that may still be spent.
	refreshID string
}

type authService struct {
	secret     []byte
	accessTTL  time.Duration
	refreshTTL time.Duration

	mu       sync.Mutex
	sessions map[string]*session // by sid; a dead session is deleted
}

func randomID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

type tokenPair struct {
	access, refresh string
}

// issue signs a new pair for the session and records the refresh token's jti as the one that may be spent.
// The caller holds s.mu.
func (s *authService) issue(sid string, sess *session) (tokenPair, error) {
	// Whole seconds, as the JWT claims carry them: the access token lives ACCESS_TOKEN_TTL seconds from iat.
	now := time.Now().Truncate(time.Second)
	access := jwt.NewWithClaims(jwt.SigningMethodHS256, claims{
		Email:     sess.user.Email,
		Role:      sess.user.Role,
		SessionID: sid,
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   sess.user.ID,
			ID:        randomID(),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(s.accessTTL)),
		},
	})
	refreshID := randomID()
	refresh := jwt.NewWithClaims(jwt.SigningMethodHS256, claims{
		SessionID: sid,
		Type:      "refresh",
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   sess.user.ID,
			ID:        refreshID,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(s.refreshTTL)),
		},
	})
	accessString, err := access.SignedString(s.secret)
	if err != nil {
		return tokenPair{}, err
	}
	refreshString, err := refresh.SignedString(s.secret)
	if err != nil {
		return tokenPair{}, err
	}
	sess.refreshID = refreshID
	return tokenPair{access: accessString, refresh: refreshString}, nil
}

// parse verifies an HS256 token of ours: its signature and its exp/iat.
func (s *authService) parse(tokenString string) (*claims, error) {
	c := &claims{}
	_, err := jwt.ParseWithClaims(tokenString, c, func(t *jwt.Token) (interface{}, error) {
		if _, ok := t.Method.(*jwt.SigningMethodHMAC); !ok {
			return nil, fmt.Errorf("unexpected signing method %v", t.Header["alg"])
		}
		return s.secret, nil
	}, jwt.WithValidMethods([]string{"HS256"}))
	return c, err
}

func (s *authService) login(email, password string) (tokenPair, *user, error) {
	for _, u := range users {
		if u.Email == email && subtle.ConstantTimeCompare([]byte(u.Password), []byte(password)) == 1 {
			s.mu.Lock()
			defer s.mu.Unlock()
			sid := randomID()
			sess := &session{user: u}
			s.sessions[sid] = sess
			pair, err := s.issue(sid, sess)
			return pair, u, err
		}
	}
	return tokenPair{}, nil, errInvalidCredentials
}

// liveRefresh finds the session of a refresh token that may still be spent. The caller holds s.mu.
func (s *authService) liveRefresh(tokenString string) (string, *session, error) {
	c, err := s.parse(tokenString)
	if err != nil || c.Type != "refresh" {
		return "", nil, errInvalidRefreshToken
	}
	sess := s.sessions[c.SessionID]
	if sess == nil || sess.refreshID != c.ID || sess.user.ID != c.Subject {
		return "", nil, errInvalidRefreshToken
	}
	return c.SessionID, sess, nil
}

func (s *authService) refresh(tokenString string) (tokenPair, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sid, sess, err := s.liveRefresh(tokenString)
	if err != nil {
		return tokenPair{}, err
	}
	return s.issue(sid, sess) // the presented token's jti is no longer the session's: it is spent
}

func (s *authService) logout(tokenString string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sid, _, err := s.liveRefresh(tokenString)
	if err != nil {
		return err
	}
	delete(s.sessions, sid) // both tokens of the session are refused from now on
	return nil
}

// authenticate is the user of an access token, or the contract's refusal. An expired token is TOKEN_EXPIRED
// whatever its session's state; one that is not ours (bad signature, malformed) is not authenticated.
func (s *authService) authenticate(tokenString string) (*user, error) {
	if tokenString == "" {
		return nil, errNotAuthenticated
	}
	c, err := s.parse(tokenString)
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) && !errors.Is(err, jwt.ErrTokenSignatureInvalid) &&
			!errors.Is(err, jwt.ErrTokenMalformed) && !errors.Is(err, jwt.ErrTokenUnverifiable) {
			return nil, tokenExpiredError{}
		}
		return nil, errNotAuthenticated
	}
	if c.Type != "" {
		return nil, errNotAuthenticated // a refresh token is no access token
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.sessions[c.SessionID]
	if sess == nil || sess.user.ID != c.Subject {
		return nil, errNotAuthenticated
	}
	return sess.user, nil
}

// ---- The bearer token in the request's context -------------------------------------------------------------

type contextKey struct{}

// withBearerToken is the http middleware: it puts the Authorization header's bearer token (or "") into the
// request's context for the resolvers.
func withBearerToken(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := ""
		if scheme, value, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
			token = strings.TrimSpace(value)
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), contextKey{}, token)))
	})
}

func bearerToken(ctx context.Context) string {
	token, _ := ctx.Value(contextKey{}).(string)
	return token
}

// ---- Resolvers ---------------------------------------------------------------------------------------------

type resolver struct {
	auth *authService
}

func (r *resolver) LoginWithEmailPassword(args struct {
	Email    string
	Password string
}) (*authPayloadResolver, error) {
	pair, u, err := r.auth.login(args.Email, args.Password)
	if err != nil {
		return nil, err
	}
	return &authPayloadResolver{pair: pair, user: u}, nil
}

func (r *resolver) RefreshToken(args struct{ Token string }) (*tokenPairResolver, error) {
	pair, err := r.auth.refresh(args.Token)
	if err != nil {
		return nil, err
	}
	return &tokenPairResolver{pair: pair}, nil
}

func (r *resolver) Logout(args struct{ RefreshToken string }) (*logoutResultResolver, error) {
	if err := r.auth.logout(args.RefreshToken); err != nil {
		return nil, err
	}
	return &logoutResultResolver{success: true}, nil
}

func (r *resolver) Me(ctx context.Context) (*userResolver, error) {
	u, err := r.auth.authenticate(bearerToken(ctx))
	if err != nil {
		return nil, err
	}
	return &userResolver{u: u}, nil
}

func (r *resolver) Club(ctx context.Context, args struct{ ID graphql.ID }) (*clubResolver, error) {
	if _, err := r.auth.authenticate(bearerToken(ctx)); err != nil {
		return nil, err
	}
	if args.ID != "c1" {
		return nil, errClubNotFound
	}
	return &clubResolver{id: "c1", name: "Riverside"}, nil
}

func (r *resolver) RenameClub(ctx context.Context, args struct {
	ID   graphql.ID
	Name string
}) (*clubResolver, error) {
	if _, err := r.auth.authenticate(bearerToken(ctx)); err != nil {
		return nil, err
	}
	return nil, errClubNotEditable
}

type userResolver struct{ u *user }

func (r *userResolver) ID() graphql.ID { return graphql.ID(r.u.ID) }
func (r *userResolver) Email() string  { return r.u.Email }
func (r *userResolver) Role() string   { return r.u.Role }

type authPayloadResolver struct {
	pair tokenPair
	user *user
}

func (r *authPayloadResolver) AccessToken() string  { return r.pair.access }
func (r *authPayloadResolver) RefreshToken() string { return r.pair.refresh }
func (r *authPayloadResolver) User() *userResolver  { return &userResolver{u: r.user} }

type tokenPairResolver struct{ pair tokenPair }

func (r *tokenPairResolver) AccessToken() string  { return r.pair.access }
func (r *tokenPairResolver) RefreshToken() string { return r.pair.refresh }

type logoutResultResolver struct{ success bool }

func (r *logoutResultResolver) Success() bool { return r.success }

type clubResolver struct {
	id   graphql.ID
	name string
}

func (r *clubResolver) ID() graphql.ID { return r.id }
func (r *clubResolver) Name() string   { return r.name }

// ---- Main --------------------------------------------------------------------------------------------------

func env(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

func seconds(name string, fallback int) time.Duration {
	n, err := strconv.Atoi(env(name, strconv.Itoa(fallback)))
	if err != nil || n <= 0 {
		log.Fatalf("%s must be a positive number of seconds", name)
	}
	return time.Duration(n) * time.Second
}

func main() {
	secret := []byte(os.Getenv("JWT_SECRET"))
	if len(secret) == 0 {
		secret = make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			log.Fatal(err)
		}
	}
	auth := &authService{
		secret:     secret,
		accessTTL:  seconds("ACCESS_TOKEN_TTL", 900),
		refreshTTL: seconds("REFRESH_TOKEN_TTL", 30*24*60*60),
		sessions:   map[string]*session{},
	}

	schema := graphql.MustParseSchema(schemaString, &resolver{auth: auth})
	mux := http.NewServeMux()
	mux.Handle("/graphql", withBearerToken(&relay.Handler{Schema: schema}))

	listener, err := net.Listen("tcp", net.JoinHostPort(env("HOST", "127.0.0.1"), env("PORT", "4000")))
	if err != nil {
		log.Fatal(err)
	}
	server := &http.Server{Handler: mux}

	// On SIGTERM (or Ctrl-C): stop accepting, let requests in flight finish for up to a second, exit 0.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		server.Shutdown(shutdown)
	}()

	// os.Stdout is not buffered: the line is out once Printf returns.
	fmt.Printf("listening on http://%s/graphql\n", listener.Addr().String())
	if err := server.Serve(listener); !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
	<-stopped
}
