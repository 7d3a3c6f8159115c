import type { Inbox, Request } from '@waitfor/core';
import { createFormSession } from '@waitfor/core/form';
import type { FormSession } from '@waitfor/core/form';

// Per inbox: the form of each question this page showed lately, so a form that unmounts while its
// answer is being sent (a remote inbox hides it meanwhile) comes back with what the person typed.
const forms = new WeakMap<Inbox, Map<string, FormSession>>();
const maxForms = 64;

/**
 * The form session of `request` in `inbox`: the one already shown for the same question (same id,
 * same attempt), else a new one, remembered. A re-ask (another attempt) starts a fresh form.
 */
export function rememberedForm(inbox: Inbox, request: Request): FormSession {
  let held = forms.get(inbox);
  if (held === undefined) {
    held = new Map();
    forms.set(inbox, held);
  }
  const known = held.get(request.id);
  if (known !== undefined && known.request.data?.attempt === request.data?.attempt) return known;
  const session = createFormSession(request);
  held.delete(request.id);
  held.set(request.id, session);
  if (held.size > maxForms) held.delete(held.keys().next().value!);
  return session;
}
