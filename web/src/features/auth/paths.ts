/** Login, sign-up and forgot password share one screen, without header or sidebar (spec §2). */
export const AUTH_SCREEN_PATHS = ['/login', '/signup', '/forgot-password']
