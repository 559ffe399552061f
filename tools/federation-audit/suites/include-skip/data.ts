export const products = [
  {
    id: "p1",
    price: 699.99,
  },
];
