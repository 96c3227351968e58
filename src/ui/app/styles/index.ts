// The app's style sheets, in cascade order: this list is the order their rules reach the page in. main.tsx imports it
// right after tokens.css, so they come last in the first screen's CSS, as the one styles.css they were split from did.
// They are listed here, not imported by the components they style: a component's import would move its rules ahead of
// this list (the components load before it), and a lazily loaded one's would take them out of the first screen's CSS.
import './base.css';
import './shell.css';
import './sidebar.css';
import './chat-log.css';
import './composer.css';
import './sign-in.css';
import './narrow.css';
import './inbox.css';
import './rename.css';
import './wrapping-and-notices.css';
