// Lit alone, as a reference for the widget's size: everything the `lit` package exports.
export * from 'lit';
