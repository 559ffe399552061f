export const pubishPoorPlans = true;

export const medias = [
  {
    __typename: "Book",
    id: "m1",
    animals: ["a1", "a2"],
  },
];

export const animals = [
  {
    __typename: "Dog",
    id: "a1",
    name: "Fido",
    age: 3,
  },
  {
    __typename: "Cat",
    id: "a2",
    name: "Whiskers",
    age: 6,
  },
];
