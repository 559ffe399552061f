export const products = [
  {
    upc: "p1",
    name: "p-name-1",
    price: 11,
    weight: 1,
    category: {
      averagePrice: 11,
    },
  },
  {
    upc: "p2",
    name: "p-name-2",
    price: 22,
    weight: 2,
    category: {
      averagePrice: 22,
    },
  },
];
