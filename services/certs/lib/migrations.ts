import type { Migration } from '../../../lib/store/migrate';
import { binaryCollationMigration } from '../../../lib/store/binary-collation';

export const CERTS_MIGRATIONS: Migration[] = [
  {
    name: '001_create_certificates',
    async up(db) {
      await db.schema.createTable('certificates', (t) => {
        // organisation id (≤ 64) + 64 hex digits
        t.string('id', 128).primary();
        t.string('org_id', 64).notNullable().index();
        t.string('fingerprint', 64).notNullable();
        t.text('cert_pem', 'mediumtext').notNullable();
        /** the private key sealed with lib/secret-box.ts; empty when none was uploaded */
        t.text('sealed_key', 'mediumtext').notNullable();
        t.bigInteger('created_at').notNullable();
      });
    },
    async down(db) {
      await db.schema.dropTable('certificates');
    },
  },
  // Ids, hashes and paths compare byte for byte on MySQL/MariaDB too (lib/store/binary-collation.ts).
  binaryCollationMigration('002_binary_collation', ['certificates']),
];
