export const users = [
  {
    id: "u1",
    name: "u1-name",
    address: "a1",
  },
  {
    id: "u2",
    name: "u2-name",
    address: "a2",
  },
];

export const addresses = [
  {
    __typename: "HomeAddress",
    id: "a1",
    city: "a1-city",
    country: "a1-country",
  },
  {
    __typename: "WorkAddress",
    id: "a2",
    city: "a2-city",
    country: "a2-country",
  },
];
