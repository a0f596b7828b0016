# frozen_string_literal: true

# The contract's auth service on graphql-ruby 1.13 (Debian's ruby-graphql, ruby-jwt, ruby-webrick).
#
# Written as graphql-ruby's guides teach it: a class-based schema (Schema > Root types; Type definitions >
# Objects, with Types::BaseObject as the installer generates it), one GraphQL::Schema::Mutation class per mutation
# with `argument`s, a `type` and `resolve` (Mutations > Mutation classes), `Schema.execute(query, variables:,
# context:, operation_name:)` with the current request's credentials in the context (Queries > Executing queries;
# the generated GraphqlController), and refusals raised as GraphQL::ExecutionError (Errors > Execution errors).
# WEBrick serves it as its docs teach: an HTTPServlet mounted on /graphql, the real port read from the listener.
#
# On the wire, a plain `raise GraphQL::ExecutionError, 'Not authenticated'` becomes
# `{"message":"Not authenticated","locations":[...],"path":["me"]}`: no `extensions` at all. The contract's one
# code is `GraphQL::ExecutionError.new('Access token expired', extensions: { 'code' => 'TOKEN_EXPIRED' })`.
# Every GraphQL result is answered 200 `application/json`.
#
# Environment: HOST, PORT (0: ephemeral), ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL, JWT_SECRET.
# Run it with `ruby graphql-ruby/server.rb`.

require 'graphql'
require 'json'
require 'jwt'
require 'securerandom'
require 'webrick'

HOST = ENV.fetch('HOST', '127.0.0.1')
PORT = Integer(ENV.fetch('PORT', '0'))
ACCESS_TOKEN_TTL = Integer(ENV.fetch('ACCESS_TOKEN_TTL', '900'))
REFRESH_TOKEN_TTL = Integer(ENV.fetch('REFRESH_TOKEN_TTL', (30 * 24 * 3600).to_s))
JWT_SECRET = ENV['JWT_SECRET'].to_s.empty? ? SecureRandom.hex(32) : ENV['JWT_SECRET']

User = Struct.new(:id, :email, :password, :role, keyword_init: true)
USERS = [
  User.new(id: 'u-admin', email: 'admin@interop.test', password: 'admin-pass', role: 'ADMIN'),
  User.new(id: 'u-cashier', email: 'cashier@interop.test', password: 'cashier-pass', role: 'Cashier'),
].freeze
CLUBS = { 'c1' => 'Riverside' }.freeze

# The sessions, in memory: sid => { user_id:, refresh_jti:, live: }. WEBrick serves each request on its own
# thread, so spending a refresh token happens under the lock.
module Sessions
  LOCK = Mutex.new
  STORE = {}

  module_function

  def start(user)
    sid = SecureRandom.uuid
    pair, refresh_jti = issue(user, sid)
    LOCK.synchronize { STORE[sid] = { user_id: user.id, refresh_jti: refresh_jti, live: true } }
    pair
  end

  # A new pair for a refresh token that may still be spent, which is spent; nil otherwise.
  def rotate(token)
    LOCK.synchronize do
      claims, session = spendable(token)
      user = claims && USERS.find { |candidate| candidate.id == claims['sub'] }
      next nil unless user

      pair, session[:refresh_jti] = issue(user, claims['sid'])
      pair
    end
  end

  # Ends the session of a refresh token that may still be spent; false otherwise.
  def end_session(token)
    LOCK.synchronize do
      _claims, session = spendable(token)
      next false unless session

      session[:live] = false
      true
    end
  end

  # The user of an access token of a live session. Raises JWT::ExpiredSignature for an expired one (ruby-jwt
  # checks `exp` before we look at the session), JWT::DecodeError for a malformed or foreign one; nil otherwise.
  def user_of(access_token)
    claims, = JWT.decode(access_token, JWT_SECRET, true, { algorithm: 'HS256' })
    return nil if claims['typ'] == 'refresh' || !STORE.dig(claims['sid'], :live)

    USERS.find { |user| user.id == claims['sub'] }
  end

  def issue(user, sid)
    now = Time.now.to_i
    access_token = JWT.encode({ sub: user.id, email: user.email, role: user.role, sid: sid, jti: SecureRandom.uuid,
                                iat: now, exp: now + ACCESS_TOKEN_TTL }, JWT_SECRET, 'HS256')
    refresh_jti = SecureRandom.uuid
    refresh_token = JWT.encode({ sub: user.id, sid: sid, jti: refresh_jti, typ: 'refresh',
                                 iat: now, exp: now + REFRESH_TOKEN_TTL }, JWT_SECRET, 'HS256')
    [{ access_token: access_token, refresh_token: refresh_token }, refresh_jti]
  end

  def spendable(token)
    claims, = JWT.decode(token, JWT_SECRET, true, { algorithm: 'HS256' })
    session = STORE[claims['sid']]
    return nil unless claims['typ'] == 'refresh' && session && session[:live] && session[:refresh_jti] == claims['jti']

    [claims, session]
  rescue JWT::DecodeError
    nil
  end
end

# What the fields that need a token call: the user of the request's bearer token, or the contract's refusal.
module Authentication
  def current_user!
    token = context[:authorization].to_s[/\ABearer\s+(\S+)\z/i, 1]
    raise GraphQL::ExecutionError, 'Not authenticated' unless token

    Sessions.user_of(token) or raise GraphQL::ExecutionError, 'Not authenticated'
  rescue JWT::ExpiredSignature
    raise GraphQL::ExecutionError.new('Access token expired', extensions: { 'code' => 'TOKEN_EXPIRED' })
  rescue JWT::DecodeError
    raise GraphQL::ExecutionError, 'Not authenticated'
  end
end

module Types
  class BaseObject < GraphQL::Schema::Object
    include Authentication
  end

  class UserType < BaseObject
    field :id, ID, null: false
    field :email, String, null: false
    field :role, String, null: false
  end

  class AuthPayloadType < BaseObject
    graphql_name 'AuthPayload'
    field :access_token, String, null: false
    field :refresh_token, String, null: false
    field :user, UserType, null: false
  end

  class TokenPairType < BaseObject
    graphql_name 'TokenPair'
    field :access_token, String, null: false
    field :refresh_token, String, null: false
  end

  class LogoutResultType < BaseObject
    graphql_name 'LogoutResult'
    field :success, Boolean, null: false
  end

  class ClubType < BaseObject
    graphql_name 'Club'
    field :id, ID, null: false
    field :name, String, null: false
  end

  class QueryType < BaseObject
    field :me, UserType, null: false

    field :club, ClubType, null: false do
      argument :id, ID, required: true
    end

    def me
      current_user!
    end

    def club(id:)
      current_user!
      raise GraphQL::ExecutionError, 'Club not found' unless CLUBS.key?(id)

      { id: id, name: CLUBS[id] }
    end
  end
end

module Mutations
  class BaseMutation < GraphQL::Schema::Mutation
    include Authentication
  end

  class LoginWithEmailPassword < BaseMutation
    argument :email, String, required: true
    argument :password, String, required: true
    type Types::AuthPayloadType
    null false

    def resolve(email:, password:)
      user = USERS.find { |candidate| candidate.email == email && candidate.password == password }
      raise GraphQL::ExecutionError, 'Invalid email or password' unless user

      Sessions.start(user).merge(user: user)
    end
  end

  class RefreshToken < BaseMutation
    argument :token, String, required: true
    type Types::TokenPairType
    null false

    def resolve(token:)
      Sessions.rotate(token) or raise GraphQL::ExecutionError, 'Invalid refresh token'
    end
  end

  class Logout < BaseMutation
    argument :refresh_token, String, required: true
    type Types::LogoutResultType
    null false

    def resolve(refresh_token:)
      raise GraphQL::ExecutionError, 'Invalid refresh token' unless Sessions.end_session(refresh_token)

      { success: true }
    end
  end

  class RenameClub < BaseMutation
    argument :id, ID, required: true
    argument :name, String, required: true
    type Types::ClubType
    null false

    def resolve(id:, name:)
      current_user!
      raise GraphQL::ExecutionError, 'Not allowed to edit this club'
    end
  end
end

module Types
  class MutationType < BaseObject
    field :login_with_email_password, mutation: Mutations::LoginWithEmailPassword
    field :refresh_token, mutation: Mutations::RefreshToken
    field :logout, mutation: Mutations::Logout
    field :rename_club, mutation: Mutations::RenameClub
  end
end

class InteropSchema < GraphQL::Schema
  query Types::QueryType
  mutation Types::MutationType
end

# POST /graphql with a JSON body { query, variables, operationName }.
class GraphQLServlet < WEBrick::HTTPServlet::AbstractServlet
  def do_POST(request, response)
    params = JSON.parse(request.body || '')
    raise JSON::ParserError, 'not an object' unless params.is_a?(Hash) && params['query'].is_a?(String)

    result = InteropSchema.execute(
      params['query'],
      variables: params['variables'] || {},
      operation_name: params['operationName'],
      context: { authorization: request['Authorization'] }
    )
    respond(response, 200, result.to_h)
  rescue JSON::ParserError
    respond(response, 400, { 'errors' => [{ 'message' => 'Must provide a JSON body with a query' }] })
  end

  private

  def respond(response, status, payload)
    response.status = status
    response['Content-Type'] = 'application/json'
    response.body = JSON.generate(payload)
  end
end

server = WEBrick::HTTPServer.new(
  BindAddress: HOST,
  Port: PORT,
  Logger: WEBrick::Log.new($stderr, WEBrick::Log::WARN),
  AccessLog: [],
  StartCallback: lambda {
    $stdout.puts "listening on http://#{HOST}:#{server.listeners.first.addr[1]}/graphql"
    $stdout.flush
  }
)
server.mount '/graphql', GraphQLServlet
trap('TERM') { server.shutdown }
trap('INT') { server.shutdown }
server.start
