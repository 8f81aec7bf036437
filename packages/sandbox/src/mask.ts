/** `s***@example.com`: enough for the person to recognise their address, not enough to read it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/** Every digit but the last two hidden: `+** *** *** ** 67`. */
export function maskPhone(phone: string): string {
  const total = phone.replace(/\D/g, '').length;
  let seen = 0;
  return phone.replace(/\d/g, (d) => {
    seen += 1;
    return seen > total - 2 ? d : '*';
  });
}
