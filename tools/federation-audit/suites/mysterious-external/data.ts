export const products = [
  {
    id: "1",
    name: "name-1",
    price: 100,
  },
  {
    id: "2",
    name: "name-2",
    price: 200,
  },
];
