// The subgraph SDLs of the federation benchmark, written for Federation v1 (SDL) and for
// Federation 2 (SDL_FEDERATION_2: the same types, fields and keys, @link-ed to federation/v2.3),
// and its deeply nested query. sdlOf(process.env.FEDERATION) picks one for a child process.
const SDL = {
  accounts: `
    extend type Query { me: User users: [User] }
    type User @key(fields: "id") { id: ID! name: String username: String }`,
  inventory: `
    extend type Product @key(fields: "upc") {
      upc: String! @external
      weight: Int @external
      price: Int @external
      inStock: Boolean
      shippingEstimate: Int @requires(fields: "price weight")
    }`,
  products: `
    extend type Query { topProducts(first: Int = 5): [Product] }
    type Product @key(fields: "upc") { upc: String! name: String price: Int weight: Int }`,
  reviews: `
    type Review @key(fields: "id") { id: ID! body: String author: User @provides(fields: "username") product: Product }
    extend type User @key(fields: "id") { id: ID! @external username: String @external reviews: [Review] }
    extend type Product @key(fields: "upc") { upc: String! @external reviews: [Review] }`,
};

const link = (imports) =>
  `extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ${JSON.stringify(imports)})`;

// Federation 2 has no type extensions for entities and key fields need no @external; a field that
// reviews @provides (User.username) is resolved by two subgraphs, so its owner marks it @shareable.
const SDL_FEDERATION_2 = {
  accounts: `
    ${link(['@key', '@shareable'])}
    type Query { me: User users: [User] }
    type User @key(fields: "id") { id: ID! name: String username: String @shareable }`,
  inventory: `
    ${link(['@key', '@external', '@requires'])}
    type Product @key(fields: "upc") {
      upc: String!
      weight: Int @external
      price: Int @external
      inStock: Boolean
      shippingEstimate: Int @requires(fields: "price weight")
    }`,
  products: `
    ${link(['@key'])}
    type Query { topProducts(first: Int = 5): [Product] }
    type Product @key(fields: "upc") { upc: String! name: String price: Int weight: Int }`,
  reviews: `
    ${link(['@key', '@external', '@provides'])}
    type Review @key(fields: "id") { id: ID! body: String author: User @provides(fields: "username") product: Product }
    type User @key(fields: "id") { id: ID! username: String @external reviews: [Review] }
    type Product @key(fields: "upc") { upc: String! reviews: [Review] }`,
};

/** The subgraph SDLs of one federation version ('2' or 2 for Federation 2, anything else v1). */
function sdlOf(version) {
  return String(version) === '2' ? SDL_FEDERATION_2 : SDL;
}

const QUERY = `
fragment User on User { id username name }
fragment Review on Review { id body }
fragment Product on Product { inStock name price shippingEstimate upc weight }
query TestQuery {
  users { ...User reviews { ...Review product { ...Product reviews { ...Review author { ...User reviews { ...Review product { ...Product } } } } } } }
  topProducts { ...Product reviews { ...Review author { ...User reviews { ...Review product { ...Product } } } } }
}`;

module.exports = { SDL, SDL_FEDERATION_2, sdlOf, QUERY };
