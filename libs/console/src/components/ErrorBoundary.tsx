import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorView } from './ErrorView';

interface State {
  error: unknown;
  failed: boolean;
}

/** Catches a render error below it and shows ErrorView instead of a blank screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: undefined, failed: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('console: render error', error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.failed)
      return (
        <ErrorView
          error={this.state.error}
          onRetry={() => this.setState({ error: undefined, failed: false })}
        />
      );
    return this.props.children;
  }
}
