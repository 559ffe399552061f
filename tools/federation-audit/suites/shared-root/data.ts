export const product = {
  id: "1",
  name: {
    id: "1",
    brand: "Brand 1",
    model: "Model 1",
  },
  category: {
    id: "1",
    name: "Category 1",
  },
  price: {
    id: "1",
    amount: 1000,
    currency: "USD",
  },
  address: {
    id: "1",
    street: "123 Main St",
    city: "Springfield",
  },
};
