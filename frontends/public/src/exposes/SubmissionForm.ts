/** `public/SubmissionForm`: the clip submission form with its styles (default export), shown by the dashboard's Submit New Clip tab. */
import '../styles/public.css';
import '../styles/submit.css';

export { SubmissionForm as default } from '../components/submission-form.js';
