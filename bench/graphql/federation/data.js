// The federation benchmark's data: users, products, inventory and reviews, generated the same way every run.
const users = Array.from({ length: 3 }, (_, i) => ({
  id: String(i + 1),
  name: `User ${i + 1}`,
  username: `@user${i + 1}`,
}));
const products = Array.from({ length: 5 }, (_, i) => ({
  upc: String(i + 1),
  name: `Product ${i + 1}`,
  price: 100 + i * 150,
  weight: 10 + i * 20,
}));
const inventory = products.map((p, i) => ({ upc: p.upc, inStock: i % 3 !== 0 }));
const reviews = Array.from({ length: 10 }, (_, i) => ({
  id: String(i + 1),
  authorID: users[i % users.length].id,
  upc: products[(i * 3) % products.length].upc,
  body: `Review ${i + 1}`,
}));

module.exports = { users, products, inventory, reviews };
