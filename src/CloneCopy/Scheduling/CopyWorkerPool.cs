using System;
using System.Collections.Concurrent;
using System.Threading;

namespace CloneCopy;

/// <summary>
/// A fixed set of dedicated copy threads shared by every Copy task in the process, as MSBuild's Copy
/// shares its own: the work of concurrent tasks (parallel project builds in one node) queues here
/// instead of multiplying threads, and blocking file I/O stays off the thread pool MSBuild relies on.
/// </summary>
[System.Diagnostics.CodeAnalysis.SuppressMessage("Design", "CA1001:Types that own disposable fields should be disposable", Justification = "One pool per process, for the process's lifetime: its queue is never released, as MSBuild's own copy threads are not.")]
internal sealed class CopyWorkerPool
{
    private static readonly Lazy<CopyWorkerPool> SharedPool = new(() => new CopyWorkerPool(CopyEscapeHatches.DefaultParallelism));
    private readonly BlockingCollection<Action> _work = new();

    private CopyWorkerPool(int threads)
    {
        for (int i = 0; i < threads; i++)
        {
            var thread = new Thread(Work) { IsBackground = true, Name = $"CloneCopy worker {i + 1}" };
            thread.Start();
        }
    }

    public static CopyWorkerPool Shared => SharedPool.Value;

    public void Post(Action work) => _work.Add(work);

    private void Work()
    {
        foreach (Action work in _work.GetConsumingEnumerable())
        {
            work();
        }
    }
}
