/** One uploaded binary file (POST /files/{name}); its bytes are in the blob store under `blobKey`. */
export interface BinaryFileRecord {
  readonly projectId: string;
  readonly id: string;
  readonly fileName: string;
  /** MIME type from the upload's Content-Type. */
  readonly contentType: string;
  /** Bytes. */
  readonly size: number;
  /** Pixels, null unless the file is an image whose size could be read. */
  readonly imageWidth: number | null;
  readonly imageHeight: number | null;
  readonly blobKey: string;
  readonly createdAt: Date;
}

/** An asset taxonomy element value: element and term ids. */
export interface AssetElementValue {
  readonly element: { readonly id: string };
  readonly value: readonly { readonly id: string }[];
}

/** One asset (SPEC 2.5). File facts (name, size, type) come from its binary file. */
export interface AssetRecord {
  readonly projectId: string;
  readonly id: string;
  readonly codename: string;
  readonly externalId: string | null;
  readonly fileId: string;
  readonly title: string | null;
  /** Null at the root. */
  readonly folderId: string | null;
  /** Null when the asset is in no collection. */
  readonly collectionId: string | null;
  /** Description by language id; languages without one are absent. */
  readonly descriptions: Readonly<Record<string, string>>;
  readonly elements: readonly AssetElementValue[];
  readonly lastModified: Date;
}

/** One asset folder, as the Management API shows it (minus nothing: ids are stored as given). */
export interface AssetFolder {
  readonly id: string;
  readonly name: string;
  readonly codename: string;
  readonly externalId: string | null;
  readonly folders: readonly AssetFolder[];
}

/** The folder tree of a project. */
export interface AssetFolderTree {
  readonly folders: readonly AssetFolder[];
  readonly lastModified: Date;
}
