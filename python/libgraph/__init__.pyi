# Type stubs of the libgraph package (python/libgraph/*.py).
from os import PathLike
from typing import (Any, Callable, Hashable, Literal, Mapping, NamedTuple, Sequence, SupportsIndex,
                    overload)

import numpy as np
import numpy.typing as npt
from typing_extensions import Buffer as _BufferLike

from ._libgraph import (
    MAX_VERTICES as MAX_VERTICES,
    Context as Context,
    DeviceError as DeviceError,
    Error as Error,
    FileFormatError as FileFormatError,
    InternalError as InternalError,
    InvalidArgumentError as InvalidArgumentError,
    NotConverged as NotConverged,
    Unbounded as Unbounded,
    OutOfMemoryError as OutOfMemoryError,
    UnsupportedError as UnsupportedError,
    __version__ as __version__,
)

_Array = _BufferLike | Sequence[int] | Sequence[float]
_Device = None | Literal["auto", "cpu", "gpu"] | str | Context
_Duplicates = Literal["keep", "sum", "min", "max", "first", "last"]
_Format = None | Literal["mtx", "el", "wel", "lgb"]
_WeightDtype = None | Literal["float32", "float64"] | Any
_SsspMethod = Literal["auto", "delta-stepping", "bellman-ford"]
_Vector = None | _Array | Mapping[Hashable, float]
_Dtype = Literal["float64", "float32"] | type | np.dtype[Any]

def generate_edges(kind: Literal["kron", "urand"] = "kron", scale: int = 10, edge_factor: int = 16,
                   seed: int = 1, *, device: _Device = None
                   ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...

__all__ = [
    "Graph", "Context", "generate_edges", "bfs", "pagerank", "connected_components",
    "number_connected_components", "strongly_connected_components",
    "number_strongly_connected_components", "sssp", "shortest_path", "betweenness_centrality", "edge_betweenness_centrality", "betweenness_centrality_subset", "closeness_centrality", "harmonic_centrality", "eigenvector_centrality", "katz_centrality", "hits", "run", "algorithms", "last_backend", "last_backend_reason",
    "build_info",
    "set_default_device", "get_default_device", "set_progress", "get_progress", "PageRankInfo",
    "Error", "InvalidArgumentError",
    "OutOfMemoryError", "DeviceError", "UnsupportedError", "FileFormatError", "NotConverged", "Unbounded",
    "InternalError", "MAX_VERTICES", "__version__",
]

class Graph:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    @property
    def names(self) -> list[Hashable] | None: ...
    @names.setter
    def names(self, names: Sequence[Hashable] | None) -> None: ...
    @property
    def nodes(self) -> list[Hashable] | None: ...
    @nodes.setter
    def nodes(self, names: Sequence[Hashable] | None) -> None: ...
    def index_of(self, names: Any) -> Any: ...
    def to_pandas(self, values: Any, name: Hashable | None = None) -> Any: ...
    def to_dict(self, values: Any) -> dict[Hashable, Any]: ...
    @classmethod
    def from_edges(cls, src: Any, dst: Any, weights: _Array | None = None,
                   num_vertices: int | None = None, directed: bool = False, *,
                   names: bool | None = None, symmetrize: bool = False,
                   drop_self_loops: bool = False, duplicates: _Duplicates = "keep",
                   weight_dtype: _WeightDtype = None, device: _Device = None) -> Graph: ...
    @classmethod
    def from_pandas(cls, df: Any, source: Hashable = "source", target: Hashable = "target",
                    weight: Hashable | None = None, *, directed: bool = False,
                    names: bool | None = None, symmetrize: bool = False,
                    drop_self_loops: bool = False, duplicates: _Duplicates = "keep",
                    weight_dtype: _WeightDtype = None, device: _Device = None) -> Graph: ...
    @classmethod
    def from_csr(cls, offsets: _Array, indices: _Array, weights: _Array | None = None,
                 directed: bool = False, *, symmetrize: bool = False,
                 drop_self_loops: bool = False, duplicates: _Duplicates = "keep",
                 weight_dtype: _WeightDtype = None, device: _Device = None) -> Graph: ...
    @classmethod
    def from_scipy(cls, matrix: Any, directed: bool = False, *, weighted: bool = True,
                   symmetrize: bool = False, drop_self_loops: bool = False,
                   duplicates: _Duplicates = "sum", weight_dtype: _WeightDtype = None,
                   device: _Device = None) -> Graph: ...
    @classmethod
    def from_networkx(cls, G: Any, weight: str | None = "weight", *,
                      default_weight: float = 1.0, weight_dtype: _WeightDtype = None,
                      device: _Device = None) -> Graph: ...
    @classmethod
    def load(cls, path: str | PathLike[str], format: _Format = None, directed: bool | None = None,
             *, symmetrize: bool = False, drop_self_loops: bool = False,
             duplicates: _Duplicates = "keep", names: bool = True,
             weight_dtype: _WeightDtype = None, device: _Device = None) -> Graph: ...
    @classmethod
    def generate(cls, kind: Literal["kron", "urand"] = "kron", scale: int = 10,
                 edge_factor: int = 16, seed: int = 1, *, device: _Device = None) -> Graph: ...
    def save(self, path: str | PathLike[str], format: _Format = None, *, names: bool = True,
             plain: bool = False, device: _Device = None) -> None: ...
    @property
    def num_vertices(self) -> int: ...
    @property
    def num_edges(self) -> int: ...
    @property
    def directed(self) -> bool: ...
    @property
    def weighted(self) -> bool: ...
    @property
    def weight_dtype(self) -> Literal["float32", "float64"] | None: ...
    @property
    def negative_weights(self) -> bool: ...
    def out_degrees(self) -> npt.NDArray[np.int64]: ...
    def in_degrees(self) -> npt.NDArray[np.int64]: ...
    def degrees(self) -> npt.NDArray[np.int64]: ...
    def csr(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32],
                           npt.NDArray[np.float32] | npt.NDArray[np.float64] | None]: ...
    def csc(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32],
                           npt.NDArray[np.float32] | npt.NDArray[np.float64] | None]: ...
    def to_scipy(self) -> Any: ...
    def vertex(self, node: Hashable) -> int: ...
    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]: ...
    def __copy__(self) -> Graph: ...

@overload
def bfs(G: Graph, source: Any, *, parents: Literal[False] = False, max_depth: int | None = None,
        direction_alpha: int = 15, direction_beta: int = 18,
        device: _Device = None, out: Any = None, parents_out: Any = None) -> npt.NDArray[np.int32]: ...
@overload
def bfs(G: Graph, source: Any, *, parents: Literal[True], max_depth: int | None = None,
        direction_alpha: int = 15, direction_beta: int = 18, device: _Device = None,
        out: Any = None, parents_out: Any = None
        ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
def strongly_connected_components(G: Graph, *, device: _Device = None, out: Any = None
                                  ) -> npt.NDArray[np.int32]: ...
def number_strongly_connected_components(G: Graph, *, device: _Device = None) -> int: ...
@overload
def shortest_path(G: Graph, source: Any, target: None = None, *, weight: Any = "weight",
                  method: _SsspMethod = "auto", device: _Device = None
                  ) -> dict[Hashable, list[Hashable]]: ...
@overload
def shortest_path(G: Graph, source: Any, target: Hashable, *, weight: Any = "weight",
                  method: _SsspMethod = "auto", device: _Device = None) -> list[Hashable]: ...
def betweenness_centrality(G: Graph, k: int | None = None, normalized: bool = True,
                           weight: Any = None, endpoints: bool = False, seed: Any = None, *,
                           sources: Any = None, device: _Device = None, out: Any = None
                           ) -> npt.NDArray[np.float64]: ...
def edge_betweenness_centrality(G: Graph, k: int | None = None, normalized: bool = True,
                                weight: Any = None, seed: Any = None, *, sources: Any = None,
                                device: _Device = None, out: Any = None
                                ) -> npt.NDArray[np.float64]: ...
def betweenness_centrality_subset(G: Graph, sources: Any, targets: Any, normalized: bool = False,
                                  weight: Any = None, *, device: _Device = None,
                                  out: Any = None) -> npt.NDArray[np.float64]: ...
def closeness_centrality(G: Graph, distance: Any = None, wf_improved: bool = True, *,
                         device: _Device = None, out: Any = None) -> npt.NDArray[np.float64]: ...
def harmonic_centrality(G: Graph, distance: Any = None, *, device: _Device = None,
                        out: Any = None) -> npt.NDArray[np.float64]: ...
def eigenvector_centrality(G: Graph, max_iter: int = 100, tol: float = 1.0e-6,
                           nstart: Any = None, weight: Any = None, *, dtype: _Dtype = "float64",
                           device: _Device = None, out: Any = None) -> npt.NDArray[np.floating[Any]]: ...
def katz_centrality(G: Graph, alpha: float = 0.1, beta: Any = 1.0, max_iter: int = 1000,
                    tol: float = 1.0e-6, nstart: Any = None, normalized: bool = True,
                    weight: Any = None, *, dtype: _Dtype = "float64", device: _Device = None,
                    out: Any = None) -> npt.NDArray[np.floating[Any]]: ...
def hits(G: Graph, max_iter: int = 100, tol: float = 1.0e-8, nstart: Any = None,
         normalized: bool = True, *, weight: Any = "weight", dtype: _Dtype = "float64",
         device: _Device = None, out: Any = None) -> tuple[npt.NDArray[np.floating[Any]], npt.NDArray[np.floating[Any]]]: ...
@overload
def sssp(G: Graph, source: Any, *, weight: Any = "weight", predecessors: Literal[False] = False,
         cutoff: float | None = None, target: Any = None, delta: float = 0.0,
         method: _SsspMethod = "auto", device: _Device = None,
         out: Any = None) -> npt.NDArray[np.float64]: ...
@overload
def sssp(G: Graph, source: Any, *, weight: Any = "weight", predecessors: Literal[True],
         cutoff: float | None = None, target: Any = None, delta: float = 0.0,
         method: _SsspMethod = "auto", device: _Device = None, out: Any = None
         ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int32]]: ...
class PageRankInfo(NamedTuple):
    iterations: int
    residual: float
    converged: bool

@overload
def pagerank(G: Graph, alpha: float = 0.85, personalization: _Vector = None, max_iter: int = 100,
             tol: float = 1e-06, nstart: _Vector = None, weight: Any = "weight",
             dangling: _Vector = None, *, dtype: _Dtype = "float64",
             device: _Device = None, out: Any = None,
             return_info: Literal[False] = False) -> npt.NDArray[np.floating[Any]]: ...
@overload
def pagerank(G: Graph, alpha: float = 0.85, personalization: _Vector = None, max_iter: int = 100,
             tol: float = 1e-06, nstart: _Vector = None, weight: Any = "weight",
             dangling: _Vector = None, *, dtype: _Dtype = "float64",
             device: _Device = None, out: Any = None,
             return_info: Literal[True]) -> tuple[npt.NDArray[np.floating[Any]], PageRankInfo]: ...
def connected_components(G: Graph, *, device: _Device = None,
                         out: Any = None) -> npt.NDArray[np.int32]: ...
def number_connected_components(G: Graph, *, device: _Device = None) -> int: ...
def algorithms() -> tuple[dict[str, Any], ...]: ...
def run(algorithm: str, G: Graph, *, device: _Device = None,
        out: Mapping[str, Any] | None = None, **params: Any) -> dict[str, Any]: ...
def last_backend() -> Literal["cpu", "gpu"] | None: ...
def last_backend_reason() -> str: ...
def build_info() -> str: ...
def set_default_device(device: _Device) -> None: ...
def get_default_device() -> _Device: ...
def set_progress(fn: bool | Callable[[str, int, int], object] | None = True) -> None: ...
def get_progress() -> Callable[[str, int, int], object] | None: ...
