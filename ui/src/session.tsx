import { createContext, useContext, type ReactNode } from 'react';

export type Level = 'read' | 'write' | 'admin' | 'deny';

export interface Me {
  user: { id: string; first_name: string; last_name: string; email_address: string };
  org: { id: string; name: string };
  is_admin: boolean;
  user_permissions: Record<string, Level>;
  /** where the gateway serves the APIs, as the dashboard can tell (see services/api/lib/gateway-url.ts) */
  gateway_url: string;
}

const RANK: Record<Level, number> = { deny: 0, read: 1, write: 2, admin: 3 };

/** As the server decides (lib/permissions.ts): admins hold everything, `deny` nothing. */
export function allows(me: Me, permission: string, level: 'read' | 'write'): boolean {
  if (me.is_admin) return true;
  const held = me.user_permissions[permission];
  return held !== undefined && RANK[held] >= RANK[level];
}

export interface SessionValue {
  me: Me;
  can(permission: string, level: 'read' | 'write'): boolean;
  signOut(): void;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ value, children }: { value: SessionValue; children?: ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a signed-in page');
  return value;
}
