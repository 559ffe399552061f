exports.SDL = `
  type Query { products: [Product!]! }
  type Product { upc: String! name: String! price: Int! reviews: [Review!]! }
  type Review { id: ID! body: String! author: User! }
  type User { id: ID! name: String! }
`;
exports.QUERY = '{ products { upc name price reviews { id body author { id name } } } }';
