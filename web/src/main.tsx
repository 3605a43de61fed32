import { QueryClientProvider } from '@tanstack/react-query'
import { Provider } from 'jotai'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router/dom'
import { bootstrap } from '@/app/bootstrap'
import { router } from '@/app/router'
import { queryClient } from '@/lib/queryClient'
import { appStore } from '@/stores/appStore'
import './styles/global.css'

bootstrap()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <Provider store={appStore}>
        <RouterProvider router={router} />
      </Provider>
    </QueryClientProvider>
  </StrictMode>,
)
