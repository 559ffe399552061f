import { BroadcastChannel } from 'node:worker_threads';
import { Transporters } from 'moleculer';

export interface HostTransporterOptions {
  /** the BroadcastChannel every broker of the host joins, e.g. `gw-host:<hostId>` */
  channel: string;
}

/** What one packet looks like on the channel: its Moleculer topic and its serialized bytes. */
interface HostMessage {
  topic: string;
  bytes: ArrayBuffer;
}

/**
 * A Moleculer transporter between the threads of one process. A gw node with GW_WORKERS runs a
 * broker in its main thread and one in each worker thread; with GW_TRANSPORTER (NATS) they meet
 * there, but the embedded node (`npm start`) has no NATS, so its brokers meet on a
 * BroadcastChannel named after the host instead.
 *
 * Cost: the channel has no routing, so every packet (a request to one node too) is cloned to
 * every other broker of the host, which drops the topics it did not subscribe to. That is a copy
 * per thread per packet: fine for a handful of threads, not a bus for many.
 *
 * Moleculer's own balancer picks the node of each request and event (`hasBuiltInBalancer` is
 * false, so `disableBalancer` is refused with a warning rather than leaving packets addressed to a
 * queue nobody reads). The channel stays referenced while the broker is connected, as a socket to
 * NATS would: a worker whose only work is its services must not exit under them. Stopping the
 * broker closes the channel, and the thread can then exit.
 */
export class HostTransporter extends Transporters.Base {
  private readonly channelName: string;
  private channel: BroadcastChannel | undefined;
  /** topic → the packet type (Moleculer's `cmd`) it carries, for the topics this broker reads */
  private readonly subscriptions = new Map<string, string>();
  /** set by Transporters.Base, which publishes only while it is true */
  declare connected: boolean;

  constructor(options: HostTransporterOptions) {
    super(options);
    this.channelName = options.channel;
    this.hasBuiltInBalancer = false;
  }

  override connect(): Promise<void> {
    const channel = new BroadcastChannel(this.channelName);
    channel.onmessage = (event) => this.deliver(event.data as HostMessage);
    this.channel = channel;
    return this.onConnected();
  }

  override disconnect(): Promise<void> {
    this.connected = false;
    this.channel?.close();
    this.channel = undefined;
    this.subscriptions.clear();
    return Promise.resolve();
  }

  override subscribe(cmd: string, nodeID?: string): Promise<void> {
    this.subscriptions.set(this.getTopicName(cmd, nodeID), cmd);
    return Promise.resolve();
  }

  override send(topic: string, data: Buffer): Promise<void> {
    const message: HostMessage = { topic, bytes: ownBytes(data) };
    this.channel?.postMessage(message);
    return Promise.resolve();
  }

  private deliver({ topic, bytes }: HostMessage): void {
    const cmd = this.subscriptions.get(topic);
    if (cmd !== undefined) void this.receive(cmd, Buffer.from(bytes));
  }
}

/**
 * The packet's bytes in an ArrayBuffer of their own. A small Buffer is a view on Node's shared
 * 8 KB pool, and cloning the view would copy the whole pool to every thread.
 */
function ownBytes(data: Buffer): ArrayBuffer {
  const { buffer, byteOffset, byteLength } = data;
  if (buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength) return buffer;
  return new Uint8Array(data).buffer;
}
