import type { Migration } from '../../../lib/store/migrate';
import { binaryCollationMigration } from '../../../lib/store/binary-collation';

/** Clients, single-use authorisation codes, issued access tokens and (hashed) refresh tokens. */
export const OAUTH_MIGRATIONS: Migration[] = [
  {
    name: '001_create_oauth_tables',
    async up(db) {
      await db.schema.createTable('oauth_clients', (t) => {
        t.string('client_id', 128).primary();
        t.string('api_id', 128).notNullable().index();
        t.string('org_id', 64).notNullable().defaultTo('').index();
        // SHA-256 of the secret: it is shown once, at creation.
        t.string('secret_hash', 64).notNullable();
        t.text('redirect_uri').notNullable();
        t.string('policy_id', 64).notNullable().defaultTo('');
        t.text('description').notNullable();
        t.text('meta_data').notNullable();
        t.bigInteger('created_at').notNullable();
      });
      await db.schema.createTable('oauth_codes', (t) => {
        t.string('code_hash', 64).primary();
        t.string('client_id', 128).notNullable().index();
        t.string('api_id', 128).notNullable();
        t.text('redirect_uri').notNullable();
        t.text('session', 'longtext').nullable();
        t.bigInteger('expires').notNullable();
      });
      // Access tokens are keys of the keys service; this is which client each belongs to.
      await db.schema.createTable('oauth_tokens', (t) => {
        t.string('key_hash', 64).primary();
        // The token itself, only when keys are not hashed (GW_HASH_KEYS=false).
        t.string('token', 255).nullable();
        t.string('client_id', 128).notNullable().index();
        t.string('api_id', 128).notNullable();
        t.string('org_id', 64).notNullable().defaultTo('');
        t.bigInteger('expires').notNullable();
        t.bigInteger('created_at').notNullable();
      });
      await db.schema.createTable('oauth_refresh_tokens', (t) => {
        t.string('token_hash', 64).primary();
        t.string('client_id', 128).notNullable().index();
        t.string('api_id', 128).notNullable();
        // The access token issued with it: a refresh replaces it.
        t.string('access_key_hash', 64).notNullable();
        t.text('session', 'longtext').nullable();
        t.bigInteger('expires').notNullable();
      });
    },
    async down(db) {
      for (const table of ['oauth_refresh_tokens', 'oauth_tokens', 'oauth_codes', 'oauth_clients'])
        await db.schema.dropTable(table);
    },
  },
  // Ids, hashes and paths compare byte for byte on MySQL/MariaDB too (lib/store/binary-collation.ts).
  binaryCollationMigration('002_binary_collation', [
    'oauth_clients',
    'oauth_codes',
    'oauth_tokens',
    'oauth_refresh_tokens',
  ]),
  {
    name: '003_pkce_and_code_reuse',
    async up(db) {
      await db.schema.alterTable('oauth_codes', (t) => {
        // PKCE (RFC 7636): the challenge the code was issued for and its method (S256, plain).
        t.string('code_challenge', 128).nullable();
        t.string('code_challenge_method', 8).nullable();
        // Times presented at the token endpoint: a used code is kept so a second use is recognised.
        t.integer('uses').notNullable().defaultTo(0);
        t.index(['expires'], 'oauth_codes_expires_index');
      });
      // The code an access or refresh token descends from (its hash), through refreshes too.
      for (const table of ['oauth_tokens', 'oauth_refresh_tokens']) {
        await db.schema.alterTable(table, (t) => {
          t.string('grant_id', 64).nullable();
          t.index(['grant_id'], `${table}_grant_id_index`);
        });
      }
    },
    async down(db) {
      for (const table of ['oauth_tokens', 'oauth_refresh_tokens']) {
        await db.schema.alterTable(table, (t) => {
          t.dropIndex(['grant_id'], `${table}_grant_id_index`);
          t.dropColumn('grant_id');
        });
      }
      await db.schema.alterTable('oauth_codes', (t) => {
        t.dropIndex(['expires'], 'oauth_codes_expires_index');
        t.dropColumns('code_challenge', 'code_challenge_method', 'uses');
      });
    },
  },
];
