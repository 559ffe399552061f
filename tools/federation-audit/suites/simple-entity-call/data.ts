export const users = [
  {
    id: "1",
    email: "user1@gmail.com",
    nickname: "user1",
  },
  {
    id: "2",
    email: "user2@gmail.com",
    nickname: "user2",
  },
];
