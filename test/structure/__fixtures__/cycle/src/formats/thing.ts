export const formatThing = 1;
