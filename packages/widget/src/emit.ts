/** Dispatches a bubbling, composed (crosses shadow roots), non-cancelable event from `el`. */
export function emit<T>(el: HTMLElement, name: string, detail?: T): void {
  el.dispatchEvent(new CustomEvent(name, { bubbles: true, composed: true, detail }));
}
