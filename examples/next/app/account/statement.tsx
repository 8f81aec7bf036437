'use client';

import { useState } from 'react';
import { statement } from '../actions';

export function Statement() {
  const [text, setText] = useState('');
  return (
    <section>
      <button type="button" onClick={async () => setText(await statement())}>
        Show my statement
      </button>
      <p data-testid="statement">{text}</p>
    </section>
  );
}
