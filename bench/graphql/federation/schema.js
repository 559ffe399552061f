// The subgraph SDLs (Federation v1) and the deeply nested query of the federation benchmark.
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

const QUERY = `
fragment User on User { id username name }
fragment Review on Review { id body }
fragment Product on Product { inStock name price shippingEstimate upc weight }
query TestQuery {
  users { ...User reviews { ...Review product { ...Product reviews { ...Review author { ...User reviews { ...Review product { ...Product } } } } } } }
  topProducts { ...Product reviews { ...Review author { ...User reviews { ...Review product { ...Product } } } } }
}`;

module.exports = { SDL, QUERY };
