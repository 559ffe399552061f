import type { Migration } from '../../../lib/store/migrate';
import { explicitAdmins } from './explicit-admins';
import { hashAccessKeys } from './hash-access-keys';
import { binaryCollationMigration } from '../../../lib/store/binary-collation';

export const USERS_MIGRATIONS: Migration[] = [
  {
    name: '001_create_users',
    async up(db) {
      await db.schema.createTable('users', (t) => {
        t.string('id', 24).primary();
        t.string('org_id', 64).notNullable();
        t.string('email_address', 255).notNullable();
        t.string('first_name', 255).notNullable().defaultTo('');
        t.string('last_name', 255).notNullable().defaultTo('');
        t.string('password_hash', 255).notNullable().defaultTo('');
        t.boolean('active').notNullable().defaultTo(true);
        t.string('access_key', 64).notNullable().unique();
        t.string('group_id', 64).notNullable().defaultTo('');
        t.text('user_permissions').notNullable();
        t.bigInteger('created_at').notNullable();
        t.bigInteger('updated_at').notNullable();
        t.unique(['org_id', 'email_address']);
      });
    },
    async down(db) {
      await db.schema.dropTable('users');
    },
  },
  {
    name: '002_create_groups_and_sessions',
    async up(db) {
      await db.schema.createTable('user_groups', (t) => {
        t.string('id', 24).primary();
        t.string('org_id', 64).notNullable().index();
        t.string('name', 255).notNullable();
        t.text('description').notNullable();
        t.boolean('active').notNullable().defaultTo(true);
        t.text('user_permissions').notNullable();
        t.bigInteger('created_at').notNullable();
        t.bigInteger('updated_at').notNullable();
      });
      // Dashboard login sessions: only a hash of the session token is kept.
      await db.schema.createTable('user_sessions', (t) => {
        t.string('token_hash', 64).primary();
        t.string('user_id', 24).notNullable().index();
        t.bigInteger('expires_at').notNullable();
      });
    },
    async down(db) {
      await db.schema.dropTable('user_sessions');
      await db.schema.dropTable('user_groups');
    },
  },
  {
    name: '003_create_sso_nonces',
    async up(db) {
      await db.schema.createTable('sso_nonces', (t) => {
        t.string('nonce_hash', 64).primary();
        t.string('org_id', 64).notNullable();
        t.string('email_address', 255).notNullable();
        t.string('group_id', 64).notNullable();
        t.bigInteger('expires_at').notNullable();
      });
    },
    async down(db) {
      await db.schema.dropTable('sso_nonces');
    },
  },
  {
    name: '004_hash_access_keys',
    up: hashAccessKeys,
    async down() {
      throw new Error(
        '004_hash_access_keys cannot be undone: the plaintext access keys are gone; give users new keys instead',
      );
    },
  },
  // Ids, hashes and paths compare byte for byte on MySQL/MariaDB too (lib/store/binary-collation.ts).
  binaryCollationMigration('005_binary_collation', ['users', 'user_groups', 'user_sessions', 'sso_nonces']),
  {
    name: '006_explicit_admins',
    up: explicitAdmins,
    async down() {
      throw new Error(
        '006_explicit_admins cannot be undone: which administrators were stored without permissions is not known',
      );
    },
  },
];
