/** Injection tokens of what the metrics worker's start-up opens outside Nest. */
/** X's post lookup (XApiClient), made once the bearer token is known to be there. */
export const X_API = Symbol('X_API');
