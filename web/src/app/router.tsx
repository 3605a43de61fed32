import { createBrowserRouter, type RouteObject } from 'react-router'
import { AppLayout } from '@/components/layout/AppLayout'
import { clearFlowOnStart, requireUploadedImages } from '@/features/flow/guards'
import { ComingSoonPage } from '@/pages/ComingSoonPage'
import { HomePage } from '@/pages/HomePage'
import { LoadingBlock } from '@/components/ui/Spinner'
import { NotFoundPage, RouteErrorPage } from '@/pages/NotFoundPage'

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
    lazy: () => import('@/features/output/components/OutputImagePage').then((m) => ({ Component: m.OutputImagePage })),
  },
]

const placeholders: Array<[path: string, title: string]> = [
  ['showcase', 'Showcase'],
  ['subscription', 'Pricing'],
  ['help', 'Help & Support'],
  ['contact', 'Contact Us'],
  ['my-images', 'My Images'],
  ['dashboard', 'Dashboard'],
  ['user-setting', 'User Setting'],
  ['plan-details', 'Plan details'],
  ['enterprise-plan', 'Enterprise plan'],
  ['billing-info', 'Billing'],
  ['success', 'Payment successful'],
  ['failure', 'Payment failed'],
]

const loginRoute = () => import('@/pages/LoginPage').then((m) => ({ Component: m.LoginPage }))

export const router = createBrowserRouter([
  // Login, sign-up and forgot-password share one screen, without the app shell.
  ...['/login', '/signup', '/forgot-password'].map((path) => ({
    path,
    lazy: loginRoute,
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <LoadingBlock />,
  })),
  {
    path: '/',
    element: <AppLayout />,
    // Shown while the first route's code and loader resolve on a cold load.
    hydrateFallbackElement: <LoadingBlock />,
    children: [
      {
        // Errors render inside the layout so the navigation stays usable.
        errorElement: <RouteErrorPage />,
        children: [
          { index: true, loader: clearFlowOnStart, element: <HomePage /> },
          ...flowRoutes,
          ...placeholders.map(([path, title]) => ({ path, element: <ComingSoonPage title={title} /> })),
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
])
