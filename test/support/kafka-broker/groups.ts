import { randomUUID } from 'node:crypto';

/**
 * Consumer-group coordination as a Kafka broker does it (KIP-62 era, JoinGroup v1): members
 * join, the coordinator waits for every known member to rejoin (or the rebalance timeout),
 * hands the leader everyone's protocol metadata, and the leader's SyncGroup assignments go
 * back to each member. Members that stop heartbeating are dropped after their session timeout.
 */

export const ERR = { none: 0, illegalGeneration: 22, unknownMember: 25, rebalanceInProgress: 27 } as const;

export interface JoinRequest {
  groupId: string;
  memberId: string;
  clientId: string;
  sessionTimeout: number;
  rebalanceTimeout: number;
  protocolType: string;
  protocols: Array<{ name: string; metadata: Buffer }>;
}

export interface JoinResult {
  error: number;
  generation: number;
  protocol: string;
  leader: string;
  memberId: string;
  members: Array<{ memberId: string; metadata: Buffer }>;
}

interface Member {
  id: string;
  sessionTimeout: number;
  rebalanceTimeout: number;
  protocols: Array<{ name: string; metadata: Buffer }>;
  lastSeen: number;
  assignment: Buffer;
  joining?: (result: JoinResult) => void;
  syncing?: (result: { error: number; assignment: Buffer }) => void;
}

class Group {
  state: 'empty' | 'preparing' | 'completing' | 'stable' = 'empty';
  generation = 0;
  leader = '';
  protocol = '';
  readonly members = new Map<string, Member>();
  timer?: NodeJS.Timeout;
}

export class GroupCoordinator {
  private readonly groups = new Map<string, Group>();
  private readonly sweeper = setInterval(() => this.expireSessions(), 250).unref();

  join(request: JoinRequest): Promise<JoinResult> {
    const group = this.group(request.groupId);
    if (request.memberId && !group.members.has(request.memberId))
      return Promise.resolve(failedJoin(ERR.unknownMember, request.memberId));
    const id = request.memberId || `${request.clientId}-${randomUUID()}`;
    const member = group.members.get(id) ?? {
      id,
      assignment: Buffer.alloc(0),
      lastSeen: Date.now(),
      sessionTimeout: 0,
      rebalanceTimeout: 0,
      protocols: [],
    };
    Object.assign(member, {
      sessionTimeout: request.sessionTimeout,
      rebalanceTimeout: request.rebalanceTimeout,
      protocols: request.protocols,
      lastSeen: Date.now(),
    });
    group.members.set(id, member);
    const result = new Promise<JoinResult>((resolve) => (member.joining = resolve));
    if (group.state !== 'preparing') this.prepareRebalance(group);
    this.completeJoinWhenAllRejoined(group);
    return result;
  }

  sync(
    groupId: string,
    generation: number,
    memberId: string,
    assignments: Array<{ memberId: string; assignment: Buffer }>,
  ): Promise<{ error: number; assignment: Buffer }> {
    const group = this.groups.get(groupId);
    const member = group?.members.get(memberId);
    const empty = Buffer.alloc(0);
    if (!group || !member) return Promise.resolve({ error: ERR.unknownMember, assignment: empty });
    if (generation !== group.generation) return Promise.resolve({ error: ERR.illegalGeneration, assignment: empty });
    if (group.state === 'preparing') return Promise.resolve({ error: ERR.rebalanceInProgress, assignment: empty });
    member.lastSeen = Date.now();
    if (group.state === 'stable') return Promise.resolve({ error: ERR.none, assignment: member.assignment });
    const result = new Promise<{ error: number; assignment: Buffer }>((resolve) => (member.syncing = resolve));
    if (memberId === group.leader) {
      for (const m of group.members.values())
        m.assignment = assignments.find((a) => a.memberId === m.id)?.assignment ?? empty;
      group.state = 'stable';
      for (const m of group.members.values()) {
        m.syncing?.({ error: ERR.none, assignment: m.assignment });
        m.syncing = undefined;
      }
    }
    return result;
  }

  heartbeat(groupId: string, generation: number, memberId: string): number {
    const group = this.groups.get(groupId);
    const member = group?.members.get(memberId);
    if (!group || !member) return ERR.unknownMember;
    if (generation !== group.generation) return ERR.illegalGeneration;
    member.lastSeen = Date.now();
    return group.state === 'preparing' ? ERR.rebalanceInProgress : ERR.none;
  }

  leave(groupId: string, memberId: string): number {
    const group = this.groups.get(groupId);
    if (!group?.members.has(memberId)) return ERR.unknownMember;
    this.remove(group, memberId);
    return ERR.none;
  }

  /** whether a member may commit offsets now (generation -1: a commit outside group management) */
  commitCheck(groupId: string, generation: number, memberId: string): number {
    if (generation < 0) return ERR.none;
    const group = this.groups.get(groupId);
    if (!group?.members.has(memberId)) return ERR.unknownMember;
    if (generation !== group.generation) return ERR.illegalGeneration;
    return group.state === 'completing' ? ERR.rebalanceInProgress : ERR.none;
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const group of this.groups.values()) clearTimeout(group.timer);
  }

  private group(id: string): Group {
    let group = this.groups.get(id);
    if (!group) this.groups.set(id, (group = new Group()));
    return group;
  }

  private prepareRebalance(group: Group): void {
    group.state = 'preparing';
    for (const m of group.members.values()) {
      m.syncing?.({ error: ERR.rebalanceInProgress, assignment: Buffer.alloc(0) });
      m.syncing = undefined;
    }
    const wait = Math.max(0, ...[...group.members.values()].map((m) => m.rebalanceTimeout));
    clearTimeout(group.timer);
    group.timer = setTimeout(() => this.completeJoin(group), wait).unref();
  }

  private completeJoinWhenAllRejoined(group: Group): void {
    if (group.state === 'preparing' && [...group.members.values()].every((m) => m.joining)) this.completeJoin(group);
  }

  /** Ends the join phase: members that did not rejoin are dropped, the others get the new generation. */
  private completeJoin(group: Group): void {
    clearTimeout(group.timer);
    for (const m of [...group.members.values()]) if (!m.joining) group.members.delete(m.id);
    if (group.members.size === 0) {
      group.state = 'empty';
      return;
    }
    const members = [...group.members.values()];
    if (!group.members.has(group.leader)) group.leader = members[0].id;
    const leader = group.members.get(group.leader)!;
    group.protocol =
      leader.protocols.find((p) => members.every((m) => m.protocols.some((q) => q.name === p.name)))?.name ??
      leader.protocols[0]?.name ??
      '';
    group.generation++;
    group.state = 'completing';
    for (const m of members) {
      const resolve = m.joining!;
      m.joining = undefined;
      m.lastSeen = Date.now();
      resolve({
        error: ERR.none,
        generation: group.generation,
        protocol: group.protocol,
        leader: group.leader,
        memberId: m.id,
        members:
          m.id === group.leader
            ? members.map((x) => ({
                memberId: x.id,
                metadata: x.protocols.find((p) => p.name === group.protocol)?.metadata ?? Buffer.alloc(0),
              }))
            : [],
      });
    }
  }

  private remove(group: Group, memberId: string): void {
    const member = group.members.get(memberId);
    group.members.delete(memberId);
    member?.joining?.(failedJoin(ERR.unknownMember, memberId));
    member?.syncing?.({ error: ERR.unknownMember, assignment: Buffer.alloc(0) });
    if (group.members.size === 0) {
      clearTimeout(group.timer);
      group.state = 'empty';
      return;
    }
    if (group.state !== 'preparing') this.prepareRebalance(group);
    this.completeJoinWhenAllRejoined(group);
  }

  private expireSessions(): void {
    const now = Date.now();
    for (const group of this.groups.values()) {
      for (const m of [...group.members.values()])
        if (!m.joining && now - m.lastSeen > m.sessionTimeout) this.remove(group, m.id);
    }
  }
}

function failedJoin(error: number, memberId: string): JoinResult {
  return { error, generation: -1, protocol: '', leader: '', memberId, members: [] };
}
