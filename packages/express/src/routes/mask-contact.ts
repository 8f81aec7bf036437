/** The contact a link was sent to, as the person may see it again: `a•••@example.com`, `•••••67`. */
export function maskContact(contact: { email: string } | { phoneNumber: string }): string {
  if ('email' in contact) {
    const at = contact.email.lastIndexOf('@');
    return `${contact.email.slice(0, Math.min(1, at))}•••${contact.email.slice(at)}`;
  }
  const digits = contact.phoneNumber.replace(/\D/g, '');
  return `•••••${digits.slice(-2)}`;
}
