/** Broadcast after a certificate is added or removed: gateway nodes drop their cached copy. */
export const CERTS_CHANGED = 'certs.changed';
export interface CertsChangedEvent {
  action: 'created' | 'deleted';
  id: string;
}
