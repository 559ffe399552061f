export const accounts = [
  {
    __typename: "Account",
    id: "a1",
    username: "a1-username",
  },
];

export const chats = [
  {
    __typename: "Chat",
    id: "c1",
    accountId: "a1",
    text: "c1-text",
  },
];
