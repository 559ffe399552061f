import { createServer, type Server, type Socket } from 'node:net';

/** A TCP server answering each request's bytes with `answer` (raw HTTP), recording every connection. */
export async function rawServer(
  answer: (request: string, socket: Socket, index: number) => void,
): Promise<{ port: number; connections: Socket[]; requests: string[]; close(): Promise<void> }> {
  const connections: Socket[] = [];
  const requests: string[] = [];
  const server: Server = createServer((socket) => {
    connections.push(socket);
    let buffered = '';
    socket.on('data', (data) => {
      buffered += data.toString('latin1');
      // one request per head (these tests send no bodies to raw servers)
      while (buffered.includes('\r\n\r\n')) {
        const end = buffered.indexOf('\r\n\r\n') + 4;
        const request = buffered.slice(0, end);
        buffered = buffered.slice(end);
        requests.push(request);
        answer(request, socket, requests.length - 1);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    connections,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
