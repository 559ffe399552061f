import { buildSchema, type GraphQLSchema } from 'graphql';

/**
 * The dashboard GraphQL API's schema (`POST /graphql`): read-only, over the caller's
 * organisation. Each root field needs the same permission as its REST route and says which.
 * No type leads back to another, so a query's depth is bounded by the schema itself; only
 * introspection can nest without end (the limits of graphql-http.ts stop it). Root fields are
 * nullable: a field the caller may not read is null with its error, the others still resolve.
 */
const SDL = /* GraphQL */ `
  "A JSON value, as the REST API returns it."
  scalar JSON

  type Query {
    "The organisation's APIs, a page at a time; q searches their names. Needs apis: read (GET /api/apis)."
    apis(page: Int = 1, q: String): ApiPage
    "One API by its internal or public id. Needs apis: read (GET /api/apis/{id})."
    api(id: ID!): Api
    "Hashes of the organisation's keys (of one API when apiId is given). Needs keys: read (GET /api/apis/{apiId}/keys); refused when keys are hashed and hashed-key listing is off."
    keys(apiId: ID, page: Int = 1): KeyPage
    "One key by its hash. Needs keys: read (GET /api/apis/{apiId}/keys/{hash})."
    key(hash: String!): Key
    "The organisation's policies, a page at a time. Needs policies: read (GET /api/portal/policies)."
    policies(page: Int = 1): PolicyPage
    "One policy by id. Needs policies: read (GET /api/portal/policies/{id})."
    policy(id: ID!): Policy
    "Requests per API over whole UTC days, from and to inclusive (YYYY-MM-DD). Needs analytics: read (GET /api/activity/apis/...)."
    activityByApi(from: String!, to: String!, page: Int = 1): AnalyticsPage
    "Requests per API and endpoint; of one API, key (by hash) or OAuth client when given. Needs analytics: read (GET /api/activity/endpoints/..., /api/activity/keys/endpoint/...)."
    activityByEndpoint(
      from: String!
      to: String!
      page: Int = 1
      apiId: ID
      keyHash: String
      oauthClientId: String
    ): AnalyticsPage
    "Requests over time, per hour or per day. Needs analytics: read (GET /api/usage/apis/...)."
    usage(
      from: String!
      to: String!
      resolution: Resolution = DAY
      page: Int = 1
      apiId: ID
      keyHash: String
    ): AnalyticsPage
    "Error answers (codes of 400 and more) per API and code. Needs analytics: read (GET /api/activity/errors/...)."
    errorsByApi(from: String!, to: String!, page: Int = 1, apiId: ID): AnalyticsPage
    "Requests per client country (id.isoCountry), of one API when given; only requests whose country the GeoIP database knew. Needs analytics: read (GET /api/activity/geo/...)."
    activityByCountry(from: String!, to: String!, page: Int = 1, apiId: ID): AnalyticsPage
    "Every key of the period (id.key, id.alias), busiest first; of one API when given. Needs analytics: read (GET /api/activity/keys/...)."
    activityByKey(from: String!, to: String!, page: Int = 1, apiId: ID): AnalyticsPage
    "Every OAuth client of the period (id.oauthClientId), busiest first; of one API when given. Needs analytics: read (GET /api/activity/oauthid/...)."
    activityByOAuthClient(from: String!, to: String!, page: Int = 1, apiId: ID): AnalyticsPage
  }

  enum Resolution {
    HOUR
    DAY
  }

  type AnalyticsPage {
    items: [AnalyticsRecord!]!
    pages: Int!
  }

  "One group of requests, as the activity views answer it; counts are Float as they may pass 2^31."
  type AnalyticsRecord {
    id: AnalyticsGroup!
    hits: Float!
    success: Float!
    error: Float!
    "ISO 8601"
    lastHit: String!
    "average milliseconds, arrival to answer"
    latency: Float!
    upstreamLatency: Float!
    maxLatency: Float!
    minLatency: Float!
    maxUpstreamLatency: Float!
    minUpstreamLatency: Float!
  }

  "What the requests of a group share; only the fields of the grouping are set."
  type AnalyticsGroup {
    day: Int
    month: Int
    year: Int
    hour: Int
    code: Int
    path: String
    key: String
    alias: String
    url: String
    isoCountry: String
    apiId: String
    apiName: String
    oauthClientId: String
  }

  type ApiPage {
    items: [Api!]!
    pages: Int!
  }

  type Api {
    "internal id"
    id: ID!
    "public id (api_id)"
    apiId: ID!
    name: String!
    orgId: String!
    active: Boolean!
    listenPath: String!
    targetUrl: String!
    useKeyless: Boolean!
    "host name the API answers on; empty for any"
    domain: String!
    tags: [String!]!
    "the whole API definition"
    definition: JSON!
  }

  type KeyPage {
    hashes: [String!]!
    pages: Int!
  }

  type Key {
    hash: String!
    alias: String
    orgId: String
    isInactive: Boolean!
    "epoch seconds; 0 or less = never"
    expires: Float
    rate: Float
    per: Float
    quotaMax: Float
    quotaRemaining: Float
    quotaRenews: Float
    quotaRenewalRate: Float
    tags: [String!]!
    applyPolicies: [String!]!
    accessRights: [AccessRight!]!
    "the session object, as GET /api/apis/{apiId}/keys/{key} returns it"
    session: JSON!
  }

  type AccessRight {
    apiId: ID!
    apiName: String
    versions: [String!]!
  }

  type PolicyPage {
    items: [Policy!]!
    pages: Int!
  }

  type Policy {
    id: ID!
    name: String!
    orgId: String!
    active: Boolean!
    rate: Float
    per: Float
    quotaMax: Float
    quotaRenewalRate: Float
    tags: [String!]!
    accessRights: [AccessRight!]!
    "the policy object, as GET /api/portal/policies/{id} returns it"
    policy: JSON!
  }
`;

/** Built once: the schema does not depend on the caller. `JSON` is output only and passes values through. */
export function dashboardSchema(): GraphQLSchema {
  return buildSchema(SDL);
}
