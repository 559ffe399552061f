import type { Caller } from '../../../../contracts/users/actions';
import type { Route } from '../../../../lib/http/surface';

/**
 * One dashboard endpoint and the permission it needs, as the reference dashboard hands them to
 * its rules in `input.permissions` (`{permission, rx}`), with the level and method added.
 */
export interface RoutePermission {
  permission: string;
  level: string;
  method: string;
  /** an anchored RE2 expression for the endpoint's full path */
  rx: string;
}

const REGEX_SYNTAX = /[.*+?^${}()|[\]\\]/g;

export function routePermissions(mount: string, routes: Array<Route<Caller>>): RoutePermission[] {
  return routes
    .filter((route) => route.permission)
    .map((route) => ({
      permission: route.permission!.name,
      level: route.permission!.level,
      method: route.method.toUpperCase(),
      rx: `^${`${mount}${route.path}`.replace(REGEX_SYNTAX, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`,
    }));
}
