import { columnLengthProblem } from '../../../lib/store/column-limits';
import { UsersErrors } from '../errors';

/**
 * Refuse what does not fit the `users`, `user_groups` and `sso_nonces` tables (migrations.ts),
 * naming the field. `user_permissions` and `description` are TEXT columns, counted in bytes.
 */
export function assertUserFits(user: {
  org_id?: string;
  email_address?: string;
  first_name?: string;
  last_name?: string;
  group_id?: string;
  user_permissions?: string;
}): void {
  const problem = columnLengthProblem(
    [
      ['org_id', user.org_id, 64],
      ['email_address', user.email_address, 255],
      ['first_name', user.first_name, 255],
      ['last_name', user.last_name, 255],
      ['group_id', user.group_id, 64],
    ],
    [['user_permissions', user.user_permissions]],
  );
  if (problem) throw UsersErrors.invalid(problem);
}

export function assertGroupFits(group: {
  org_id: string;
  name: string;
  description: string;
  user_permissions: string;
}): void {
  const problem = columnLengthProblem(
    [
      ['org_id', group.org_id, 64],
      ['name', group.name, 255],
    ],
    [
      ['description', group.description],
      ['user_permissions', group.user_permissions],
    ],
  );
  if (problem) throw UsersErrors.invalid(problem);
}

export function assertSsoGrantFits(grant: { OrgID: string; EmailAddress: string; GroupID?: string }): void {
  const problem = columnLengthProblem([
    ['OrgID', grant.OrgID, 64],
    ['EmailAddress', grant.EmailAddress, 255],
    ['GroupID', grant.GroupID, 64],
  ]);
  if (problem) throw UsersErrors.invalid(problem);
}
