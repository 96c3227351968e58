import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';

function Composer() {
  const [text, setText] = useState('');
  return (
    <form onSubmit={(e) => { e.preventDefault(); setText(''); }}>
      <textarea aria-label="Message" rows={1} value={text} onChange={(e) => setText(e.target.value)} />
      <button type="submit" disabled={!text.trim()}>Send</button>
    </form>
  );
}

createRoot(document.getElementById('root')).render(<StrictMode><Composer /></StrictMode>);
