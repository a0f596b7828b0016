// Modules the examples import that are not installed here, because they need a native build or weigh too much to
// install for a type-check: only the members the examples use, with the signatures of the versions named.
// react-native-keychain 10 and ioredis are installed (devDependencies) and checked against their own types.

// react-native 0.8x: AppState.
declare module 'react-native' {
  export type AppStateStatus = 'active' | 'background' | 'inactive' | 'unknown' | 'extension';
  export interface NativeEventSubscription {
    remove(): void;
  }
  export const AppState: {
    readonly currentState: AppStateStatus;
    addEventListener(
      type: 'change' | 'memoryWarning' | 'blur' | 'focus',
      listener: (state: AppStateStatus) => void,
    ): NativeEventSubscription;
  };
}

// @react-native-community/netinfo 11/12: the default export's addEventListener.
declare module '@react-native-community/netinfo' {
  export interface NetInfoState {
    readonly type: string;
    readonly isConnected: boolean | null;
    readonly isInternetReachable: boolean | null | undefined;
  }
  export type NetInfoSubscription = () => void;
  const NetInfo: {
    addEventListener(listener: (state: NetInfoState) => void): NetInfoSubscription;
    fetch(): Promise<NetInfoState>;
  };
  export default NetInfo;
}

// expo-secure-store 14+.
declare module 'expo-secure-store' {
  export interface SecureStoreOptions {
    keychainService?: string;
    requireAuthentication?: boolean;
  }
  export function getItemAsync(key: string, options?: SecureStoreOptions): Promise<string | null>;
  export function setItemAsync(key: string, value: string, options?: SecureStoreOptions): Promise<void>;
  export function deleteItemAsync(key: string, options?: SecureStoreOptions): Promise<void>;
}
