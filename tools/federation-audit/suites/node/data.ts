export const products = [
  {
    id: "p-1",
    name: "Product 1",
    price: 10.0,
  },
  {
    id: "p-2",
    name: "Product 2",
    price: 20.0,
  },
];

export const categories = [
  {
    id: "pc-1",
    name: "Category 1",
  },
  {
    id: "c-2",
    name: "Category 2",
  },
];
