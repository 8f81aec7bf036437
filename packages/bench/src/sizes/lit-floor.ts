// Lit as the widget bundles it: the same imports (LitElement, html, nothing, unsafeCSS), an element
// with reactive properties, styles and a template, and nothing of the widget's own. Built by the
// widget's own Vite config, its size is the floor under the widget's; the rest is the widget's.
import { html, LitElement, nothing, unsafeCSS } from 'lit';

class LitFloor extends LitElement {
  static override styles = unsafeCSS(':host{display:block}');
  static override properties = { label: {}, on: { type: Boolean }, _count: { state: true } };
  declare label: string;
  declare on: boolean;
  protected override render() {
    return html`<p>${this.on ? this.label : nothing}</p>`;
  }
}
customElements.define('lit-floor', LitFloor);
