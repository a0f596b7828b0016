#!/usr/bin/python3
"""The contract's auth service on Graphene 2 (Debian's python3-graphene 2.1.9, graphql-core 2.3, python3-jwt).

Written as Graphene 2's own docs teach it: the schema from ``graphene.ObjectType`` classes, one
``graphene.Mutation`` subclass per mutation with ``class Arguments`` and ``Output`` (Types > Mutations), resolvers
reading ``info.context`` (Execution > Executing a query: ``schema.execute(query, variables=..., context=...)``),
a refusal raised as an exception from the resolver. Graphene 2 has no HTTP layer of its own, so the standard
library serves it (``http.server.ThreadingHTTPServer``): POST /graphql with a JSON body, the Authorization
header put into the context, the ``ExecutionResult`` answered as ``application/json`` (``to_dict``: ``errors``
then ``data``, each error with message/locations/path/extensions only when present), HTTP 200 for every result.

On the wire, a plain ``raise Exception('Not authenticated')`` becomes
``{"message": "Not authenticated", "locations": [...], "path": ["me"]}``: no ``extensions`` at all. The one
code of the contract is a ``graphql.GraphQLError`` raised with ``extensions={'code': 'TOKEN_EXPIRED'}``, which
graphql-core 2.3 copies onto the located error and ``format_error`` writes as ``extensions``.

Environment: HOST, PORT (0: ephemeral), ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL, JWT_SECRET. Run it with
``/usr/bin/python3 graphene/server.py``.
"""
import json
import logging
import os
import secrets
import signal
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import graphene
import jwt
from graphql import GraphQLError

HOST = os.environ.get("HOST", "127.0.0.1")
PORT = int(os.environ.get("PORT", "0"))
ACCESS_TOKEN_TTL = int(os.environ.get("ACCESS_TOKEN_TTL", "900"))
REFRESH_TOKEN_TTL = int(os.environ.get("REFRESH_TOKEN_TTL", str(30 * 24 * 3600)))
JWT_SECRET = os.environ.get("JWT_SECRET") or secrets.token_hex(32)

USERS = [
    {"id": "u-admin", "email": "admin@interop.test", "password": "admin-pass", "role": "ADMIN"},
    {"id": "u-cashier", "email": "cashier@interop.test", "password": "cashier-pass", "role": "Cashier"},
]
CLUBS = {"c1": "Riverside"}

# sid -> {"user_id", "refresh_jti", "live"}; the lock makes spending a refresh token atomic across threads.
sessions = {}
sessions_lock = threading.Lock()


def find_user(user_id):
    return next((user for user in USERS if user["id"] == user_id), None)


def issue_pair(user, sid):
    now = int(time.time())
    access_token = jwt.encode(
        {"sub": user["id"], "email": user["email"], "role": user["role"], "sid": sid,
         "jti": str(uuid.uuid4()), "iat": now, "exp": now + ACCESS_TOKEN_TTL},
        JWT_SECRET, algorithm="HS256")
    refresh_jti = str(uuid.uuid4())
    refresh_token = jwt.encode(
        {"sub": user["id"], "sid": sid, "jti": refresh_jti, "typ": "refresh", "iat": now, "exp": now + REFRESH_TOKEN_TTL},
        JWT_SECRET, algorithm="HS256")
    return access_token, refresh_token, refresh_jti


def live_refresh_session(token):
    """The claims and session of a refresh token that may still be spent, or (None, None). Call under the lock."""
    try:
        claims = jwt.decode(token, JWT_SECRET, algorithms=["HS256"])
    except jwt.InvalidTokenError:
        return None, None
    session = sessions.get(claims.get("sid"))
    if claims.get("typ") != "refresh" or not session or not session["live"] or session["refresh_jti"] != claims.get("jti"):
        return None, None
    return claims, session


def current_user(info):
    """The user of the request's bearer token, or the contract's refusal."""
    authorization = info.context.get("authorization") or ""
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Exception("Not authenticated")
    try:
        claims = jwt.decode(token.strip(), JWT_SECRET, algorithms=["HS256"])
    except jwt.ExpiredSignatureError:
        raise GraphQLError("Access token expired", extensions={"code": "TOKEN_EXPIRED"})
    except jwt.InvalidTokenError:
        raise Exception("Not authenticated")
    session = sessions.get(claims.get("sid"))
    user = find_user(claims.get("sub"))
    if claims.get("typ") == "refresh" or not session or not session["live"] or not user:
        raise Exception("Not authenticated")
    return user


class User(graphene.ObjectType):
    id = graphene.ID(required=True)
    email = graphene.String(required=True)
    role = graphene.String(required=True)


class AuthPayload(graphene.ObjectType):
    access_token = graphene.String(required=True)
    refresh_token = graphene.String(required=True)
    user = graphene.Field(User, required=True)


class TokenPair(graphene.ObjectType):
    access_token = graphene.String(required=True)
    refresh_token = graphene.String(required=True)


class LogoutResult(graphene.ObjectType):
    success = graphene.Boolean(required=True)


class Club(graphene.ObjectType):
    id = graphene.ID(required=True)
    name = graphene.String(required=True)


def user_type(user):
    return User(id=user["id"], email=user["email"], role=user["role"])


class Query(graphene.ObjectType):
    me = graphene.Field(User, required=True)
    club = graphene.Field(Club, required=True, id=graphene.ID(required=True))

    def resolve_me(root, info):
        return user_type(current_user(info))

    def resolve_club(root, info, id):
        current_user(info)
        if id not in CLUBS:
            raise Exception("Club not found")
        return Club(id=id, name=CLUBS[id])


class LoginWithEmailPassword(graphene.Mutation):
    class Arguments:
        email = graphene.String(required=True)
        password = graphene.String(required=True)

    Output = AuthPayload

    def mutate(root, info, email, password):
        user = next((u for u in USERS if u["email"] == email and u["password"] == password), None)
        if not user:
            raise Exception("Invalid email or password")
        sid = str(uuid.uuid4())
        access_token, refresh_token, refresh_jti = issue_pair(user, sid)
        with sessions_lock:
            sessions[sid] = {"user_id": user["id"], "refresh_jti": refresh_jti, "live": True}
        return AuthPayload(access_token=access_token, refresh_token=refresh_token, user=user_type(user))


class RefreshToken(graphene.Mutation):
    class Arguments:
        token = graphene.String(required=True)

    Output = TokenPair

    def mutate(root, info, token):
        with sessions_lock:
            claims, session = live_refresh_session(token)
            user = claims and find_user(claims.get("sub"))
            if not user:
                raise Exception("Invalid refresh token")
            access_token, refresh_token, session["refresh_jti"] = issue_pair(user, claims["sid"])
        return TokenPair(access_token=access_token, refresh_token=refresh_token)


class Logout(graphene.Mutation):
    class Arguments:
        refresh_token = graphene.String(required=True)

    Output = LogoutResult

    def mutate(root, info, refresh_token):
        with sessions_lock:
            claims, session = live_refresh_session(refresh_token)
            if not session:
                raise Exception("Invalid refresh token")
            session["live"] = False
        return LogoutResult(success=True)


class RenameClub(graphene.Mutation):
    class Arguments:
        id = graphene.ID(required=True)
        name = graphene.String(required=True)

    Output = Club

    def mutate(root, info, id, name):
        current_user(info)
        raise Exception("Not allowed to edit this club")


class Mutation(graphene.ObjectType):
    login_with_email_password = LoginWithEmailPassword.Field(required=True)
    refresh_token = RefreshToken.Field(required=True)
    logout = Logout.Field(required=True)
    rename_club = RenameClub.Field(required=True)


schema = graphene.Schema(query=Query, mutation=Mutation)


class GraphQLHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        if self.path.split("?")[0] != "/graphql":
            return self.send_json(404, {"errors": [{"message": "Not found"}]})
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"null")
            query = body["query"]
        except (ValueError, TypeError, KeyError):
            return self.send_json(400, {"errors": [{"message": "Must provide a JSON body with a query"}]})
        result = schema.execute(
            query,
            variables=body.get("variables") or {},
            operation_name=body.get("operationName"),
            context={"authorization": self.headers.get("Authorization")},
        )
        self.send_json(200, result.to_dict())

    def send_json(self, status, payload):
        data = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_request(self, code="-", size="-"):
        pass  # no access log


def main():
    # graphql-core 2 logs a traceback for every exception a resolver raises, refusals included.
    logging.getLogger("graphql.execution.executor").setLevel(logging.CRITICAL)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with ThreadingHTTPServer((HOST, PORT), GraphQLHandler) as server:
        print("listening on http://{}:{}/graphql".format(HOST, server.server_address[1]), flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
