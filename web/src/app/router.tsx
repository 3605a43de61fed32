import { createBrowserRouter, type RouteObject } from 'react-router'
import { AUTH_SCREEN_PATHS } from '@/features/auth/paths'
import { AppLayout } from './layout/AppLayout'
import { RootLayout } from './layout/RootLayout'
import { clearFlowOnStart, requireUploadedImages } from './routes/guards'
import { ComingSoonPage } from './routes/ComingSoonPage'
import { HomePage } from './routes/HomePage'
import { LoadingBlock } from '@/components/ui/Spinner'
import { NotFoundPage, RouteErrorPage } from './routes/NotFoundPage'

// The flow pages are split into their own chunks; the shell and home stay in the main bundle.
const flowRoutes: RouteObject[] = [
  {
    path: 'upload-images',
    lazy: () => import('@/features/upload/components/UploadPage').then((m) => ({ Component: m.UploadPage })),
  },
  {
    path: 'select-model',
    loader: requireUploadedImages,
    lazy: () => import('@/features/models/components/SelectModelPage').then((m) => ({ Component: m.SelectModelPage })),
  },
  {
    path: 'select-background',
    loader: requireUploadedImages,
    lazy: () =>
      import('@/features/backgrounds/components/SelectBackgroundPage').then((m) => ({
        Component: m.SelectBackgroundPage,
      })),
  },
  {
    path: 'generate',
    loader: requireUploadedImages,
    lazy: () => import('@/features/generate/components/GeneratePage').then((m) => ({ Component: m.GeneratePage })),
  },
  {
    path: 'output-image',
    loader: requireUploadedImages,
    lazy: () => import('@/features/generate/components/OutputImagePage').then((m) => ({ Component: m.OutputImagePage })),
  },
]

const placeholders: Array<[path: string, title: string]> = [
  ['showcase', 'Showcase'],
  ['subscription', 'Pricing'],
  ['help', 'Help & Support'],
  ['contact', 'Contact Us'],
  ['my-images', 'My Images'],
  ['dashboard', 'Dashboard'],
  ['plan-details', 'Plan details'],
  ['enterprise-plan', 'Enterprise plan'],
  ['billing-info', 'Billing'],
  ['success', 'Payment successful'],
  ['failure', 'Payment failed'],
]

const authScreen = () =>
  import('@/features/auth/components/AuthScreen').then((m) => ({ Component: m.AuthScreen }))

export const router = createBrowserRouter([
  {
    // Toasts, the login modal and session handling, on every route.
    element: <RootLayout />,
    // Shown while the first route's code and loader resolve on a cold load.
    hydrateFallbackElement: <LoadingBlock />,
    children: [
      // Login, sign-up and forgot-password share one screen, without the app shell.
      ...AUTH_SCREEN_PATHS.map((path) => ({
        path,
        lazy: authScreen,
        errorElement: <RouteErrorPage />,
      })),
      {
        path: '/',
        element: <AppLayout />,
        children: [
          {
            // Errors render inside the layout so the navigation stays usable.
            errorElement: <RouteErrorPage />,
            children: [
              { index: true, loader: clearFlowOnStart, element: <HomePage /> },
              ...flowRoutes,
              {
                path: 'user-setting',
                lazy: () =>
                  import('@/features/account/components/UserSettingPage').then((m) => ({
                    Component: m.UserSettingPage,
                  })),
              },
              ...placeholders.map(([path, title]) => ({ path, element: <ComingSoonPage title={title} /> })),
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
])
