import { createBrowserRouter, type RouteObject } from 'react-router'
import { AUTH_SCREEN_PATHS } from '@/features/auth/paths'
import { AppLayout } from './layout/AppLayout'
import { RootLayout } from './layout/RootLayout'
import { requireUploadedImages } from './routes/guards'
import { ComingSoonPage } from './routes/ComingSoonPage'
import { HomePage } from './routes/HomePage'
import { homeLoader } from './routes/homeLoader'
import { subscriptionLoader } from './routes/subscriptionLoader'
import { LoadingBlock } from '@/components/ui/Spinner'
import { NotFoundPage, RouteErrorPage } from './routes/NotFoundPage'

// The flow pages are split into their own chunks; the shell and home stay in the main bundle.
const flowRoutes: RouteObject[] = [
  {
    path: 'upload-images',
    lazy: () => import('@/features/create/upload/components/UploadPage').then((m) => ({ Component: m.UploadPage })),
  },
  {
    path: 'select-model',
    loader: requireUploadedImages,
    lazy: () => import('@/features/create/model/components/SelectModelPage').then((m) => ({ Component: m.SelectModelPage })),
  },
  {
    path: 'select-background',
    loader: requireUploadedImages,
    lazy: () =>
      import('@/features/create/background/components/SelectBackgroundPage').then((m) => ({
        Component: m.SelectBackgroundPage,
      })),
  },
  {
    path: 'generate',
    loader: requireUploadedImages,
    lazy: () => import('@/features/create/generate/components/GeneratePage').then((m) => ({ Component: m.GeneratePage })),
  },
  {
    // Reads the generation from the server (?serviceId=): opens on a fresh tab too.
    path: 'output-image',
    lazy: () => import('@/features/create/generate/components/OutputImagePage').then((m) => ({ Component: m.OutputImagePage })),
  },
]

const placeholders: Array<[path: string, title: string]> = []

// Plan, payments with their invoices, and the credit history (signed-in users).
const billingRoute: RouteObject = {
  path: 'billing-info',
  lazy: () => import('@/features/billing/components/BillingPage').then((m) => ({ Component: m.BillingPage })),
}

// Pricing and checkout; /subscription gets the enterprise feature's form from here.
const commerceRoutes: RouteObject[] = [
  {
    path: 'subscription',
    loader: subscriptionLoader,
    lazy: () => import('./routes/SubscriptionRoute').then((m) => ({ Component: m.SubscriptionRoute })),
  },
  {
    path: 'plan-details',
    lazy: () => import('@/features/pricing/components/PlanDetailsPage').then((m) => ({ Component: m.PlanDetailsPage })),
  },
  {
    path: 'success',
    lazy: () => import('@/features/pricing/components/SuccessPage').then((m) => ({ Component: m.SuccessPage })),
  },
  {
    path: 'failure',
    lazy: () => import('@/features/pricing/components/FailurePage').then((m) => ({ Component: m.FailurePage })),
  },
  {
    path: 'enterprise-plan',
    lazy: () =>
      import('@/features/enterprise/components/EnterprisePlanPage').then((m) => ({ Component: m.EnterprisePlanPage })),
  },
]

const authScreen = () =>
  import('@/features/auth/components/AuthScreen').then((m) => ({ Component: m.AuthScreen }))

const routes: RouteObject[] = [
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
      // Operators' catalog of digital models and backgrounds, without the app shell (spec §2).
      {
        path: 'digital-models',
        lazy: () =>
          import('@/features/admin/catalog/components/DigitalModelsPage').then((m) => ({
            Component: m.DigitalModelsPage,
          })),
        errorElement: <RouteErrorPage />,
      },
      // Operators curate the showcase and attach edited images, without the app shell (spec §2).
      {
        path: 'admin-showcase',
        lazy: () =>
          import('@/features/admin/showcase/components/AdminShowcasePage').then((m) => ({
            Component: m.AdminShowcasePage,
          })),
        errorElement: <RouteErrorPage />,
      },
      {
        path: '/',
        element: <AppLayout />,
        children: [
          {
            // Errors render inside the layout so the navigation stays usable.
            errorElement: <RouteErrorPage />,
            children: [
              { index: true, loader: homeLoader, element: <HomePage /> },
              ...flowRoutes,
              {
                path: 'my-images',
                lazy: () =>
                  import('@/features/library/components/MyImagesPage').then((m) => ({ Component: m.MyImagesPage })),
              },
              {
                path: 'showcase',
                lazy: () =>
                  import('@/features/showcase/components/ShowcasePage').then((m) => ({ Component: m.ShowcasePage })),
              },
              {
                path: 'dashboard',
                lazy: () =>
                  import('@/features/dashboard/components/DashboardPage').then((m) => ({ Component: m.DashboardPage })),
              },
              {
                path: 'help',
                lazy: () => import('@/features/support/components/HelpPage').then((m) => ({ Component: m.HelpPage })),
              },
              {
                path: 'contact',
                lazy: () =>
                  import('@/features/support/components/ContactPage').then((m) => ({ Component: m.ContactPage })),
              },
              {
                // The public API's quickstart and reference (Redoc loads with this page only); no sign-in.
                path: 'docs/api',
                lazy: () => import('@/features/docs/components/ApiDocsPage').then((m) => ({ Component: m.ApiDocsPage })),
              },
              {
                // Anyone checks an image's Content Credentials (C2PA) here; no sign-in.
                path: 'verify',
                lazy: () =>
                  import('@/features/provenance/components/VerifyPage').then((m) => ({ Component: m.VerifyPage })),
              },
              {
                path: 'user-setting',
                lazy: () =>
                  import('@/features/account/components/UserSettingPage').then((m) => ({
                    Component: m.UserSettingPage,
                  })),
              },
              ...commerceRoutes,
              billingRoute,
              ...placeholders.map(([path, title]) => ({ path, element: <ComingSoonPage title={title} /> })),
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
    ],
  },
]

/**
 * The app's router, made when main.tsx asks: making it matches the first URL and runs its
 * loaders, which main.tsx does in a task of its own rather than in the scripts' first one.
 */
export const createRouter = () => createBrowserRouter(routes)
