// The question dock's and summaries' style sheets, in cascade order: this list is the order their rules reach the page
// in, where the one questions.css they were split from stood. The questions barrel (index.tsx, in the first load) and
// the question link page import it; the dock's own components do not, as the panel's chunk loads after the first
// screen and would take its sheet out of the first screen's CSS.
import './dock.css';
import './header.css';
import './options.css';
import './footer-and-collapsed.css';
import './summary.css';
import './secret-and-links.css';
import './detail.css';
