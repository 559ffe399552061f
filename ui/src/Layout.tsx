import { Analytics } from './pages/Analytics';
import { ApiDesigner } from './pages/ApiDesigner';
import { ApisList } from './pages/ApisList';
import { Certificates } from './pages/Certificates';
import { Keys } from './pages/Keys';
import { McpList } from './pages/McpList';
import { McpTools } from './pages/McpTools';
import { OasEditor } from './pages/OasEditor';
import { OrgSettings } from './pages/OrgSettings';
import { Policies } from './pages/Policies';
import { Profile } from './pages/Profile';
import { Users } from './pages/Users';
import { Webhooks } from './pages/Webhooks';
import { useRoute } from './router';
import { useSession } from './session';

interface Section {
  path: string;
  title: string;
  /** the permission whose read level shows the section; `admin`: administrators only */
  permission: string;
}

const SECTIONS: Section[] = [
  { path: 'apis', title: 'APIs', permission: 'apis' },
  { path: 'mcps', title: 'MCP APIs', permission: 'apis' },
  { path: 'keys', title: 'Keys', permission: 'keys' },
  { path: 'policies', title: 'Policies', permission: 'policies' },
  { path: 'analytics', title: 'Analytics', permission: 'analytics' },
  { path: 'users', title: 'Users', permission: 'users' },
  { path: 'webhooks', title: 'Webhooks', permission: 'hooks' },
  { path: 'certificates', title: 'Certificates', permission: 'certificates' },
  { path: 'org', title: 'Organisation', permission: 'admin' },
];

/** The signed-in frame: navigation by permission, who you are (a link to your profile), sign out, the page. */
export function Layout() {
  const { me, can, signOut } = useSession();
  const route = useRoute();
  const visible = SECTIONS.filter((s) => (s.permission === 'admin' ? me.is_admin : can(s.permission, 'read')));
  // Your own profile is open to every user, whatever their permissions.
  const onProfile = route[0] === 'profile';
  const current = visible.find((s) => s.path === route[0]) ?? visible[0];
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="top container-fluid">
        <nav aria-label="Main">
          <ul>
            <li>
              <a href="#/" className="brand">
                <strong>gw</strong>
              </a>
            </li>
            {visible.map((s) => (
              <li key={s.path}>
                <a href={`#/${s.path}`} aria-current={!onProfile && current?.path === s.path ? 'page' : undefined}>
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
          <ul>
            <li>
              <a
                href="#/profile"
                className="who"
                title={`Your profile: ${me.user.email_address}`}
                aria-current={onProfile ? 'page' : undefined}
              >
                <span data-testid="who">
                  {[me.user.first_name, me.user.last_name].join(' ').trim() || me.user.email_address}
                </span>
                <small data-testid="org">{me.org.name}</small>
              </a>
            </li>
            <li>
              <button type="button" className="outline small" onClick={signOut}>
                Sign out
              </button>
            </li>
          </ul>
        </nav>
      </header>
      <main className="container" id="content" tabIndex={-1}>
        {onProfile ? (
          <Profile />
        ) : current ? (
          <Page section={current.path} rest={route.slice(1)} />
        ) : (
          <p>Your account has no permissions in this organisation. Ask an administrator.</p>
        )}
      </main>
    </>
  );
}

function Page({ section, rest }: { section: string; rest: string[] }) {
  switch (section) {
    case 'apis':
      if (rest[0] === 'oas' || rest[0] === 'streams')
        return <OasEditor key={rest.join('/')} kind={rest[0]} id={rest[1] === 'new' ? undefined : rest[1]} />;
      return rest[0] ? <ApiDesigner id={rest[0]} /> : <ApisList />;
    case 'mcps':
      return rest[0] ? <McpTools key={rest[0]} id={rest[0]} /> : <McpList />;
    case 'keys':
      return <Keys />;
    case 'policies':
      return <Policies id={rest[0]} />;
    case 'analytics':
      return <Analytics rest={rest} />;
    case 'users':
      return <Users />;
    case 'webhooks':
      return <Webhooks />;
    case 'certificates':
      return <Certificates />;
    default:
      return <OrgSettings />;
  }
}
