export const media = {
  __typename: "Book",
  id: "b1",
  title: "The Lord of the Rings",
  aTitle: "A: The Lord of the Rings",
  bTitle: "B: The Lord of the Rings",
};
