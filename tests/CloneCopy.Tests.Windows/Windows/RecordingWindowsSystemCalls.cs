using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using CloneCopy.Platform.Windows;
using Microsoft.Win32.SafeHandles;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The real kernel32 and ntdll (under Wine), recorded call by call, with two optional changes for the block-clone
/// tests: <see cref="ClaimBlockRefcounting"/> makes every volume report FILE_SUPPORTS_BLOCK_REFCOUNTING
/// (Wine's NTFS never does), and <see cref="Fsctl"/> answers FSCTL_DUPLICATE_EXTENTS_TO_FILE and the
/// integrity FSCTLs (which Wine answers with ERROR_NOT_SUPPORTED). Everything else is Wine's own answer.
/// <see cref="Seam"/> is a <see cref="DispatchProxy"/>: every call of <see cref="IWindowsSystemCalls"/> passes
/// through one method here, so a new call on the seam needs nothing in this class.
/// </summary>
internal sealed class RecordingWindowsSystemCalls
{
    private readonly WindowsSystemCalls _real = WindowsSystemCalls.Instance;
    private readonly Dictionary<SafeFileHandle, IntegrityInformation> _integrity = new(ReferenceEqualityComparer.Instance);

    public RecordingWindowsSystemCalls() => Seam = Recorder.Over(this);

    /// <summary>The seam to hand the code under test.</summary>
    public IWindowsSystemCalls Seam { get; }

    public List<string> Calls { get; } = new();

    public bool ClaimBlockRefcounting { get; init; }

    /// <summary>The build RtlGetVersion is made to report (Wine 8's prefix says 7601, before CopyFile could clone); null: Wine's.</summary>
    public int? OsBuild { get; init; }

    /// <summary>
    /// Given the FSCTL's name ("DuplicateExtents", "GetIntegrityInformation", "SetIntegrityInformation") and the
    /// call's number for that name (1, 2...), an error code, 0 for success, or null to let Wine answer.
    /// A scripted successful DuplicateExtents moves the bytes itself (ReadFile/WriteFile on the real handles).
    /// </summary>
    public Func<string, int, int?> Fsctl { get; init; } = (_, _) => null;

    public IEnumerable<string> CallsTo(string name) => Calls.Where(c => c.StartsWith(name + " ", StringComparison.Ordinal));

    private object? Handle(MethodInfo method, object?[] args)
    {
        string name = method.Name;
        switch (name)
        {
            case nameof(IWindowsSystemCalls.GetIntegrityInformation) when Scripted(name) is int scripted:
                args[1] = _integrity.TryGetValue((SafeFileHandle)args[0]!, out IntegrityInformation known) ? known : new IntegrityInformation(2, 0);
                args[2] = 4096L; // ClusterSizeInBytes of a ReFS volume formatted with 4 KiB clusters
                return Record(name, "scripted", scripted);
            case nameof(IWindowsSystemCalls.SetIntegrityInformation) when Scripted(name) is int scripted:
                var information = (IntegrityInformation)args[1]!;
                if (scripted == 0)
                {
                    _integrity[(SafeFileHandle)args[0]!] = information;
                }

                return Record(name, $"scripted {information.ChecksumAlgorithm}", scripted);
            case nameof(IWindowsSystemCalls.DuplicateExtents) when Scripted(name) is int scripted:
                if (scripted == 0)
                {
                    // What a clone would leave: the source's bytes in the destination's range, within its end of file.
                    var (source, destination, sourceOffset, destinationOffset, byteCount) = ((SafeFileHandle)args[0]!, (SafeFileHandle)args[1]!, (long)args[2]!, (long)args[3]!, (long)args[4]!);
                    long length = Math.Min(byteCount, System.IO.RandomAccess.GetLength(destination) - destinationOffset);
                    var buffer = new byte[Math.Max(0, length)];
                    int read = System.IO.RandomAccess.Read(source, buffer, sourceOffset);
                    System.IO.RandomAccess.Write(destination, buffer.AsSpan(0, read), destinationOffset);
                }

                return Record(name, $"scripted {args[2]} {args[4]}", scripted);
            case nameof(IWindowsSystemCalls.GetOsBuild) when OsBuild is int build:
                args[0] = build;
                return Record(name, "scripted", 0);
            case nameof(IWindowsSystemCalls.CloseHandle):
                Record(name, string.Empty, 0);
                Real(method, args);
                return null;
        }

        if (method.ReturnType != typeof(int))
        {
            // GetDriveType: an answer, not an error code.
            object? answer = Real(method, args);
            Calls.Add($"{name} {Subject(method, args)} => {answer}");
            return answer;
        }

        int error = (int)Real(method, args)!;
        if (name == nameof(IWindowsSystemCalls.GetVolumeInformation) && error == 0 && ClaimBlockRefcounting)
        {
            args[2] = (uint)args[2]! | Win32.FileSupportsBlockRefcounting;
        }

        return Record(name, Subject(method, args), error);
    }

    private object? Real(MethodInfo method, object?[] args) => method.Invoke(_real, BindingFlags.DoNotWrapExceptions, null, args, null);

    /// <summary>What the tests read of a call: the path it is about, its flag or length ("wine" for an FSCTL Wine answered).</summary>
    private static string Subject(MethodInfo method, object?[] args)
    {
        if (method.Name == nameof(IWindowsSystemCalls.CreateFile))
        {
            return $"{args[0]} {((uint)args[3]! == Win32.CreateNew ? "CreateNew" : "OpenExisting")}";
        }

        if (method.Name is nameof(IWindowsSystemCalls.DuplicateExtents))
        {
            return $"wine {args[2]} {args[4]}";
        }

        ParameterInfo[] parameters = method.GetParameters();
        var parts = new List<string>();
        for (int i = 0; i < parameters.Length; i++)
        {
            if (!parameters[i].IsOut && (args[i] is string or bool or long || (args[i] is uint && method.Name == nameof(IWindowsSystemCalls.SetDispositionEx))))
            {
                parts.Add(Convert.ToString(args[i], System.Globalization.CultureInfo.InvariantCulture)!);
            }
        }

        string subject = string.Join(" ", parts);
        return method.Name is nameof(IWindowsSystemCalls.GetIntegrityInformation) or nameof(IWindowsSystemCalls.SetIntegrityInformation) ? "wine" : subject;
    }

    private int? Scripted(string name) => Fsctl(name, CallsTo(name).Count() + 1);

    private int Record(string name, string subject, int error)
    {
        Calls.Add($"{name} {subject} => {error}");
        return error;
    }

    /// <summary>The proxy DispatchProxy builds: each call of the seam becomes one <see cref="Handle"/>.</summary>
    [System.Diagnostics.CodeAnalysis.SuppressMessage("Performance", "CA1852:Seal internal types", Justification = "DispatchProxy builds its proxy as a subclass of this type: it must not be sealed.")]
    public class Recorder : DispatchProxy
    {
        private RecordingWindowsSystemCalls? _owner;

        internal static IWindowsSystemCalls Over(RecordingWindowsSystemCalls owner)
        {
            IWindowsSystemCalls seam = Create<IWindowsSystemCalls, Recorder>();
            ((Recorder)(object)seam)._owner = owner;
            return seam;
        }

        protected override object? Invoke(MethodInfo? targetMethod, object?[]? args) => _owner!.Handle(targetMethod!, args ?? []);
    }
}
