import { at } from '../definition';
import type { EditorProps } from '../pages/ApiDesigner';
import { binders } from './binders';

/**
 * Where a mode reads its credential (`auth`, `auth_configs.authToken`, `auth_configs.jwt`): a
 * header, and optionally a query parameter or a cookie, both named like the header when empty.
 */
export function CredentialLocation(props: EditorProps & { legend: string; base: string; what: string }) {
  const { text, toggle } = binders(props);
  const { base, what } = props;
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {text(`Header carrying the ${what}`, `${base}.auth_header_name`, 'Authorization when empty')}
      <div className="grid">
        <div>
          {toggle(`Also accept the ${what} as a query parameter`, `${base}.use_param`)}
          {at(props.def, `${base}.use_param`) === true &&
            text('Query parameter', `${base}.param_name`, 'The header name when empty; case sensitive')}
        </div>
        <div>
          {toggle(`Also accept the ${what} from a cookie`, `${base}.use_cookie`)}
          {at(props.def, `${base}.use_cookie`) === true &&
            text('Cookie', `${base}.cookie_name`, 'The header name when empty; case sensitive')}
        </div>
      </div>
    </fieldset>
  );
}
