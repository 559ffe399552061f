/** The four subgraphs of the GraphQL community's federation benchmark (accounts, inventory, products, reviews). */
export const accounts = `
extend type Query {
  me: User
  user(id: ID!): User
  users: [User]
}
type User @key(fields: "id") {
  id: ID!
  name: String
  username: String
}
`;

export const inventory = `
extend type Product @key(fields: "upc") {
  upc: String! @external
  weight: Int @external
  price: Int @external
  inStock: Boolean
  shippingEstimate: Int @requires(fields: "price weight")
}
`;

export const products = `
extend type Query {
  topProducts(first: Int = 5): [Product]
}
type Product @key(fields: "upc") {
  upc: String!
  name: String
  price: Int
  weight: Int
}
`;

export const reviews = `
type Review @key(fields: "id") {
  id: ID!
  body: String
  author: User @provides(fields: "username")
  product: Product
}
extend type User @key(fields: "id") {
  id: ID! @external
  username: String @external
  reviews: [Review]
}
extend type Product @key(fields: "upc") {
  upc: String! @external
  reviews: [Review]
}
`;

export function benchmarkSubgraphs() {
  return [
    { name: 'accounts', sdl: accounts, url: 'http://accounts.test/graphql' },
    { name: 'inventory', sdl: inventory, url: 'http://inventory.test/graphql' },
    { name: 'products', sdl: products, url: 'http://products.test/graphql' },
    { name: 'reviews', sdl: reviews, url: 'http://reviews.test/graphql' },
  ];
}
