/** `public/ViewHistory`: a submission's view history chart for its owner (default export, styles with it), shown by the dashboard's submissions list. */
export { default } from '../components/view-history.js';
