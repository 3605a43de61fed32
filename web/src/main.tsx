import { QueryClientProvider } from '@tanstack/react-query'
import { Provider } from 'jotai'
import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router/dom'
import { bootstrap } from '@/app/bootstrap'
import { createRouter } from '@/app/router'
import { queryClient } from '@/lib/queryClient'
import { appStore } from '@/stores/appStore'
import './styles/global.css'

/** Lets the browser run (paint, input, network) before the next step. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * Starts the app in steps, each its own task: the scripts' evaluation, then bootstrap, then the
 * router (it matches the URL and runs the first loaders), then the first render. As one task
 * they held the main thread for about 80 ms on a loaded machine, 300 ms on Lighthouse's 4x
 * slower phone: its total blocking time (issue 39). The render is a transition, so React
 * renders it in slices of a few milliseconds too; nothing is on screen yet to keep waiting.
 */
async function start(): Promise<void> {
  await nextTask()
  bootstrap()
  await nextTask()
  const router = createRouter()
  await nextTask()
  startTransition(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <Provider store={appStore}>
            <RouterProvider router={router} />
          </Provider>
        </QueryClientProvider>
      </StrictMode>,
    )
  })
}

void start()
