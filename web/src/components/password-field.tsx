import { Field } from './field.js';
import './password-field.css';

/** What the password and confirmation controls hold while a form is edited. */
export interface GateChoice {
  /** Empty: none on create, the current one kept on edit. */
  readonly password: string;
  readonly removePassword: boolean;
  readonly confirm: boolean;
}

export const NO_GATE: GateChoice = { password: '', removePassword: false, confirm: false };

/** The create body's fields: only what was chosen. */
export function gateOfCreate(choice: GateChoice): { password?: string; confirmBeforeRedirect?: true } {
  return { ...(choice.password !== '' && { password: choice.password }), ...(choice.confirm && { confirmBeforeRedirect: true as const }) };
}

/** The edit body's fields: a new password, null to remove it, nothing to keep it; the confirmation as the box says. */
export function gateOfEdit(choice: GateChoice): { password?: string | null; confirmBeforeRedirect: boolean } {
  const password = choice.removePassword ? null : choice.password === '' ? undefined : choice.password;
  return { ...(password !== undefined && { password }), confirmBeforeRedirect: choice.confirm };
}

/** How the link page names what a link asks of its visitors. */
export function gateText(link: { hasPassword: boolean; confirmBeforeRedirect: boolean }): string {
  const parts = [link.hasPassword && 'Password protected', link.confirmBeforeRedirect && 'Asks to confirm'].filter(Boolean);
  return parts.length === 0 ? 'Nothing: visitors go straight through' : parts.join(' · ');
}

/**
 * A password for the link's visitors and the confirmation page. On edit (`hasPassword` given) an
 * empty password keeps the current one, and a box removes it.
 */
export function PasswordField({ id, value, onChange, error, hasPassword }: {
  id: string; value: GateChoice; onChange: (choice: GateChoice) => void; error?: string; hasPassword?: boolean;
}) {
  const editing = hasPassword !== undefined;
  return (
    <div class="gate-fields">
      <Field id={`${id}-password`} label={editing && hasPassword ? 'New password (optional)' : 'Password (optional)'} type="password" autoComplete="new-password"
        value={value.password} disabled={value.removePassword} error={error}
        hint={hasPassword ? 'Leave empty to keep the current password.' : 'Visitors must enter it before they are sent on: 4 characters or more.'}
        onInput={(e) => onChange({ ...value, password: e.currentTarget.value })} />
      {hasPassword && (
        <div class="field inline">
          <input id={`${id}-remove-password`} type="checkbox" checked={value.removePassword} onChange={(e) => onChange({ ...value, removePassword: e.currentTarget.checked, password: '' })} />
          <label for={`${id}-remove-password`}>Remove the password</label>
        </div>
      )}
      <div class="field inline">
        <input id={`${id}-confirm`} type="checkbox" checked={value.confirm} onChange={(e) => onChange({ ...value, confirm: e.currentTarget.checked })} aria-describedby={`${id}-confirm-hint`} />
        <label for={`${id}-confirm`}>Ask visitors to confirm</label>
      </div>
      <p class="hint" id={`${id}-confirm-hint`}>A page with one button: only its click counts and redirects, so mail scanners that open links do not use them up.</p>
    </div>
  );
}
